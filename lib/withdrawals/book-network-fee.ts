import "server-only";

import type { Tx } from "@/lib/db/client";
import { platformAccount } from "@/lib/ledger/accounts";
import { type JournalEntry, postJournal } from "@/lib/ledger/post-journal";
import { formatAmount } from "@/lib/money";
import type { WithdrawalRecord } from "./load-withdrawal";

/**
 * Books what a mined payout really cost (`paid`, in ledger units of the chain's own coin: the gas in
 * ETH, a Bitcoin or Litecoin transaction's fee share) against what the merchant was charged for it, in the
 * caller's transaction (the one that settles the payout). What was paid left Kassa's wallet for the
 * chain (platform:chain of that coin) at platform:network_fees' expense; a confirmed payout's charged network
 * fee moves there from platform:fees, so platform:network_fees holds charged minus paid: what Kassa
 * won or lost on network fees, per currency. A reverted payout's charge was refunded with the rest,
 * so only what it paid is booked. Every currency's entries sum to zero.
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
