import "server-only";

import type { Tx } from "@/lib/db/client";
import { platformAccount } from "@/lib/ledger/accounts";
import { postJournal } from "@/lib/ledger/post-journal";
import { weiToLedgerUnits } from "../payout/wei-to-ledger-units";

/**
 * Books gas Kassa paid for its own housekeeping on chain (a sweep, a gas top-up for a token sweep):
 * the ETH left for the chain (platform:chain) at platform:network_fees' expense, where the operator
 * sees it next to what payouts' network fees won. No merchant's balance moves: the swept funds
 * only change which of Kassa's addresses holds them.
 */
export async function bookChainGas(
  tx: Tx,
  input: { feePaidWei: bigint; kind: string; memo: string },
): Promise<void> {
  const paid = weiToLedgerUnits(input.feePaidWei);
  if (paid === 0n) return;
  await postJournal(tx, {
    merchantId: null,
    kind: input.kind,
    memo: input.memo,
    entries: [
      { account: platformAccount("platform:network_fees", "ETH"), amount: -paid },
      { account: platformAccount("platform:chain", "ETH"), amount: paid },
    ],
  });
}
