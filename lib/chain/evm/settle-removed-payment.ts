import "server-only";

import { eq, sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import { unwindDeposit } from "@/lib/deposits/unwind-deposit";

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
 * a credited one changes no balance and becomes an incident row and a loud log line. The status read
 * with the removed rows is the statement's snapshot: another worker may have credited the deposit
 * since, or a reviewer released a held one, so unless it was read as credited (or was unwound) its
 * status is read again and a credit that slipped in is recorded as an incident like any other,
 * never dropped silently. A held deposit that stays held is left to the reviewer (who can only
 * reject it now).
 */
export async function settleRemovedPayment(
  tx: Tx,
  input: { network: string; payment: RemovedPayment },
): Promise<"unwound" | "incident" | "none"> {
  const { network, payment } = input;
  if (payment.deposit_id === null) return "none";
  if (payment.deposit_status === "seen" && (await unwindDeposit(tx, Number(payment.deposit_id))))
    return "unwound";
  if (payment.deposit_status !== "credited") {
    // Read as seen, or held for review, by the statement that marked it removed: a credit, or a
    // reviewer's release that statement waited for (lib/compliance/decide-review.ts locks the row),
    // committed since and is only visible to a new read.
    const [now] = await tx
      .select({ status: deposits.status })
      .from(deposits)
      .where(eq(deposits.id, Number(payment.deposit_id)));
    if (now?.status !== "credited") return "none";
  }
  const message = `credited payment ${payment.txid} (log ${payment.log_index}) was in block ${payment.block_height} ${payment.block_hash}, which a reorganisation removed; deposit ${payment.deposit_id} stays credited, no balance changed`;
  // Raw: ON CONFLICT names the (kind, deposit_id) unique index and RETURNING tells a new row from a known one.
  const inserted = await queryRows<{ id: string | number }>(
    tx,
    sql`insert into chain_incidents (network, kind, chain_transaction_id, deposit_id, block_number, block_hash, message)
        values (${network}, 'credited_payment_removed', ${payment.id}, ${payment.deposit_id},
          ${payment.block_height}, ${payment.block_hash}, ${message})
        on conflict (kind, deposit_id) do nothing returning id`,
  );
  if (inserted.length === 0) return "none";
  console.error(`[chain] INCIDENT ${network}: ${message}`);
  return "incident";
}
