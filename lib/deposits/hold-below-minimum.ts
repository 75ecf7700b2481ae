import "server-only";

import type { Tx } from "@/lib/db/client";
import { platformAccount } from "@/lib/ledger/accounts";
import { postJournal } from "@/lib/ledger/post-journal";
import { formatAmount } from "@/lib/money";
import { recordChange } from "@/lib/transactions/record-change";

/** The public API's error text for a deposit below the minimum (its callback and transactions/info). */
export const BELOW_MINIMUM_ERROR = "Transaction amount less than minimum deposit.";

/**
 * Books a confirmed deposit below the currency's minimum (DESIGN.md section 4): the coins did reach
 * Kassa's address, so they leave `platform:chain` like any deposit, but into the platform suspense
 * account `platform:below_minimum` instead of the merchant's balance. The ledger still sums to zero,
 * the merchant's balance is untouched, and the money is accounted for (per currency, what that
 * account holds is what Kassa owes back to senders or may release). Its `deposit` transaction stays
 * `below_minimum`; the timeline records the confirmation. The caller has claimed the deposit
 * (`seen → credited`) in the same transaction, so this runs once.
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
