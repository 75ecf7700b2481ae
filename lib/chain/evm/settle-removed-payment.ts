import "server-only";

import { eq, sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import { unwindDeposit } from "@/lib/deposits/unwind-deposit";
import { formatAmount } from "@/lib/money";

/** A payment in a block a reorganisation removed, with its deposit as read when the block was found gone. */
export type RemovedPayment = {
  id: string | number;
  txid: string;
  log_index: number;
  block_height: number;
  block_hash: string;
  deposit_id: string | number | null;
  deposit_status: string | null;
};

/**
 * Settles one payment whose block a reorganisation removed: a deposit that was only seen is unwound;
 * one whose coins were booked (credited to the merchant, or rejected in review into
 * platform:compliance_held) changes no balance and becomes an incident row and a loud log line; one
 * held for review waits for its reviewer, who can only reject it (lib/compliance/decide-review.ts).
 * The status read with the removed rows was not locked, and that statement's snapshot predates a
 * decision or credit that committed while it waited for the row: the deposit's status is read again
 * here, so a credit or a rejection that slipped in is recorded as an incident like any other, never
 * dropped silently.
 */
export async function settleRemovedPayment(
  tx: Tx,
  input: { network: string; payment: RemovedPayment },
): Promise<"unwound" | "incident" | "none"> {
  const { network, payment } = input;
  if (payment.deposit_id === null) return "none";
  const depositId = Number(payment.deposit_id);
  if (payment.deposit_status === "seen" && (await unwindDeposit(tx, depositId))) return "unwound";
  const [deposit] = await tx
    .select({ status: deposits.status, amount: deposits.amount, currency: deposits.currency })
    .from(deposits)
    .where(eq(deposits.id, depositId));
  if (deposit?.status !== "credited" && deposit?.status !== "rejected") return "none";
  const where = `payment ${payment.txid} (log ${payment.log_index}) was in block ${payment.block_height} ${payment.block_hash}, which a reorganisation removed`;
  const isCredited = deposit.status === "credited";
  const message = isCredited
    ? `credited ${where}; deposit ${depositId} stays credited, no balance changed`
    : `rejected ${where}; its ${formatAmount(deposit.amount)} ${deposit.currency} in platform:compliance_held did not arrive: deposit ${depositId} stays rejected, no balance changed, and its refund is refused unless the payment is mined again`;
  // Raw: ON CONFLICT names the (kind, deposit_id) unique index and RETURNING tells a new row from a known one.
  const inserted = await queryRows<{ id: string | number }>(
    tx,
    sql`insert into chain_incidents (network, kind, chain_transaction_id, deposit_id, block_number, block_hash, message)
        values (${network}, ${isCredited ? "credited_payment_removed" : "held_payment_removed"}, ${payment.id}, ${depositId},
          ${payment.block_height}, ${payment.block_hash}, ${message})
        on conflict (kind, deposit_id) do nothing returning id`,
  );
  if (inserted.length === 0) return "none";
  console.error(`[chain] INCIDENT ${network}: ${message}`);
  return "incident";
}
