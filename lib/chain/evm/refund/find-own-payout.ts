import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";

/**
 * The reference of Kassa's own payout (a withdrawal or a sweep's gas top-up) that this transaction
 * is, or one of its attempts: such a transaction is booked already, and must not be booked again as
 * a refund the operator sent.
 */
export async function findOwnPayout(db: Executor, txid: string): Promise<string | undefined> {
  const hash = txid.toLowerCase();
  // Raw: `= any(array)` over the replaced attempts reads plainer in SQL.
  const [row] = await queryRows<{ reference: string }>(
    db,
    sql`select reference from evm_payouts where lower(tx_hash) = ${hash} or ${hash} = any(replaced_hashes) limit 1`,
  );
  return row?.reference;
}
