import "server-only";

import { isOffered } from "@/lib/currencies/offering";
import { CURRENCIES, findCurrency } from "@/lib/currencies/registry";
import { fieldError } from "@/lib/errors";

/** The coins a refund may be claimed in: the one paid first, then the others allowed, each offered crypto. */
export function refundCurrencies(payCurrency: string, others: readonly string[] = []): string[] {
  const codes = [payCurrency];
  for (const raw of others) {
    const code = raw.trim().toUpperCase();
    const currency = findCurrency(code);
    if (currency?.kind !== "crypto" || !isOffered(code))
      throw fieldError({ currencies: `${raw} is not a coin a refund can be sent in here.` });
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

/** Every coin a refund could be sent in here: the alternatives offered when one is under its minimum. */
export function refundableCurrencies(): string[] {
  return CURRENCIES.filter((c) => c.kind === "crypto" && c.isVisible && isOffered(c.code)).map((c) => c.code);
}
