import "server-only";

import type { Tx } from "@/lib/db/client";
import { platformAccount } from "@/lib/ledger/accounts";
import { postJournal } from "@/lib/ledger/post-journal";
import { formatAmount } from "@/lib/money";
import { recordChange } from "@/lib/transactions/record-change";

/** The public API's error text for a deposit below the minimum (its callback and transactions/info). */
export const BELOW_MINIMUM_ERROR = "Transaction amount less than minimum deposit.";

/**
 * Books a confirmed deposit below the currency's minimum (DESIGN.md section 4): platform:chain →
 * platform:below_minimum (what Kassa owes back or may release), not the merchant's balance. The `deposit`
 * transaction stays `below_minimum`; the timeline records the confirmation. The caller claimed the
 * deposit (`seen → credited`) in the same transaction, so this runs once.
 */
export async function holdBelowMinimum(
  tx: Tx,
  input: { merchantId: number; transactionId: number; currency: string; amount: bigint },
): Promise<void> {
  await postJournal(tx, {
    merchantId: input.merchantId,
    transactionId: input.transactionId,
    kind: "deposit_below_minimum",
    memo: `Deposit below the minimum, held: ${formatAmount(input.amount)} ${input.currency}`,
    entries: [
      { account: platformAccount("platform:chain", input.currency), amount: -input.amount },
      { account: platformAccount("platform:below_minimum", input.currency), amount: input.amount },
    ],
  });
  await recordChange(tx, input.transactionId, {
    merchantId: input.merchantId,
    from: "below_minimum",
    to: "below_minimum",
    reason: "held_confirmed",
  });
}
