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
 * Settles one payment whose block a reorganisation removed: only seen, it is unwound; booked
 * (credited, or rejected in review) it becomes an incident; held, it waits for its reviewer. The
 * status is read again under the lock, so a credit that slipped in is an incident, never dropped.
 * docs/chains.md, "Ethereum: the watcher, confirmations and reorganisations".
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
