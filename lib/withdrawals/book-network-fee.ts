import "server-only";

import type { Tx } from "@/lib/db/client";
import { platformAccount } from "@/lib/ledger/accounts";
import { type JournalEntry, postJournal } from "@/lib/ledger/post-journal";
import { formatAmount } from "@/lib/money";
import type { WithdrawalRecord } from "./load-withdrawal";

/**
 * Books what a mined payout really cost (`paid`, ledger units of the chain's coin) against what the
 * merchant was charged, in the settling transaction: paid goes platform:network_fees → platform:chain; a
 * confirmed payout's charged fee goes platform:fees → platform:network_fees, which thus holds Kassa's gain
 * or loss on fees. A reverted payout's charge was refunded, so only what it paid is booked.
 */
export async function bookNetworkFee(
  tx: Tx,
  input: { record: WithdrawalRecord; paid: bigint; paidCurrency: string; isCharged: boolean },
): Promise<void> {
  const { record, paid, paidCurrency } = input;
  const charged = input.isCharged ? record.withdrawal.networkFee : 0n;
  const source = record.withdrawal.sourceCurrency;
  const sums = new Map<string, bigint>();
  const add = (key: string, amount: bigint) => sums.set(key, (sums.get(key) ?? 0n) + amount);
  // Keyed "kind|currency": when the charge was in the paid coin the two network-fee amounts net into one entry.
  add(`platform:fees|${source}`, -charged);
  add(`platform:network_fees|${source}`, charged);
  add(`platform:network_fees|${paidCurrency}`, -paid);
  add(`platform:chain|${paidCurrency}`, paid);
  const entries: JournalEntry[] = [];
  for (const [key, amount] of sums) {
    if (amount === 0n) continue;
    const [kind, currency] = key.split("|") as [
      "platform:fees" | "platform:network_fees" | "platform:chain",
      string,
    ];
    entries.push({ account: platformAccount(kind, currency), amount });
  }
  if (entries.length === 0) return;
  await postJournal(tx, {
    merchantId: record.merchantId,
    transactionId: record.id,
    kind: "withdrawal_network_fee",
    memo: `Withdrawal ${record.id}: network fee charged ${formatAmount(charged)} ${source}, paid ${formatAmount(paid)} ${paidCurrency}`,
    entries,
  });
}
