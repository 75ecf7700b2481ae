import "server-only";

import { getCurrency } from "@/lib/currencies/registry";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import type { JournalEntry } from "@/lib/ledger/post-journal";
import { percentOf, roundToPrecision } from "@/lib/money";
import { convertParts, type Rate } from "@/lib/rates/rate";

export type Credit = { gross: bigint; fee: bigint; net: bigint };

/** A part of a payment and the rate it converts at (credit units per pay unit). */
export type CreditPart = { amount: bigint; rate: Rate };

/**
 * What a payment in `payCurrency` credits in `creditCurrency`: each part at its own rate (the part
 * a live lock covers at the locked rate, the rest at the rate of the moment it was seen), summed
 * exactly and rounded once, down, to the credit currency's precision; the deposit fee (the pay
 * currency's percentage) rounded up. Both in the merchant's disfavour by at most one smallest unit.
 */
export function computeCredit(input: {
  parts: CreditPart[];
  payCurrency: string;
  creditCurrency: string;
}): Credit {
  const pay = getCurrency(input.payCurrency);
  const credit = getCurrency(input.creditCurrency);
  const gross = convertParts(input.parts, "down", credit.precision);
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
