import { getCurrency } from "@/lib/currencies/registry";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import type { JournalEntry } from "@/lib/ledger/post-journal";
import { multiply, percentOf, roundToPrecision } from "@/lib/money";

export type Credit = { gross: bigint; fee: bigint; net: bigint };

/**
 * What a payment of `payAmount` in `payCurrency` credits in `creditCurrency` at `rate` (credit
 * units per pay unit). Rounded once each, in the merchant's disfavour by at most one smallest unit:
 * the converted amount down, the deposit fee (the pay currency's percentage) up.
 */
export function computeCredit(input: {
  payAmount: bigint;
  payCurrency: string;
  creditCurrency: string;
  rate: bigint;
}): Credit {
  const pay = getCurrency(input.payCurrency);
  const credit = getCurrency(input.creditCurrency);
  const gross = roundToPrecision(multiply(input.payAmount, input.rate, "down"), credit.precision, "down");
  const rawFee = roundToPrecision(percentOf(gross, pay.depositFeePpm, "up"), credit.precision, "up");
  const fee = rawFee > gross ? gross : rawFee;
  return { gross, fee, net: gross - fee };
}

/**
 * The balanced entries of a deposit: the chain pays in, the exchange desk converts when the
 * currencies differ, the fee goes to the platform and the rest to the merchant.
 */
export function depositEntries(input: {
  merchantId: number;
  payCurrency: string;
  payAmount: bigint;
  creditCurrency: string;
  credit: Credit;
}): JournalEntry[] {
  const { merchantId, payCurrency, payAmount, creditCurrency, credit } = input;
  const entries: JournalEntry[] = [
    { account: platformAccount("platform:chain", payCurrency), amount: -payAmount },
  ];
  if (payCurrency !== creditCurrency) {
    entries.push({ account: platformAccount("platform:exchange", payCurrency), amount: payAmount });
    if (credit.gross > 0n)
      entries.push({ account: platformAccount("platform:exchange", creditCurrency), amount: -credit.gross });
  }
  if (credit.net > 0n)
    entries.push({ account: merchantBalance(merchantId, creditCurrency), amount: credit.net });
  if (credit.fee > 0n)
    entries.push({ account: platformAccount("platform:fees", creditCurrency), amount: credit.fee });
  return entries;
}
