import "server-only";

import { desc } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { chainIncidents } from "@/lib/db/schema";

/** What an operator must look at on the real chains, newest first (`cli chain incidents`). */
export async function listChainIncidents(db: Executor, input: { limit?: number } = {}) {
  const rows = await db
    .select()
    .from(chainIncidents)
    .orderBy(desc(chainIncidents.id))
    .limit(input.limit ?? 100);
  return rows.map((row) => ({
    id: row.id,
    network: row.network,
    kind: row.kind,
    deposit_id: row.depositId,
    utxo_payout_id: row.utxoPayoutId,
    block_number: row.blockNumber === null ? null : Number(row.blockNumber),
    block_hash: row.blockHash,
    message: row.message,
    created_at: row.createdAt.toISOString(),
  }));
}
