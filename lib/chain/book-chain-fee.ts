import "server-only";

import type { Tx } from "@/lib/db/client";
import { platformAccount } from "@/lib/ledger/accounts";
import { postJournal } from "@/lib/ledger/post-journal";

/**
 * Books a network fee Kassa paid for its own housekeeping on chain (an EVM sweep or gas top-up, a
 * consolidation of Bitcoin or Litecoin coins), `paid` in ledger units of the chain's coin: it left
 * for the chain (platform:chain) at platform:network_fees' expense, where the operator sees it next
 * to what payouts' network fees won. No merchant's balance moves: the funds only change which of
 * Kassa's addresses or coins hold them.
 */
export async function bookChainFee(
  tx: Tx,
  input: { paid: bigint; currency: string; kind: string; memo: string },
): Promise<void> {
  if (input.paid === 0n) return;
  await postJournal(tx, {
    merchantId: null,
    kind: input.kind,
    memo: input.memo,
    entries: [
      { account: platformAccount("platform:network_fees", input.currency), amount: -input.paid },
      { account: platformAccount("platform:chain", input.currency), amount: input.paid },
    ],
  });
}
