import "server-only";

import { getCurrency } from "@/lib/currencies/registry";
import { fieldError } from "@/lib/errors";

/**
 * A withdrawal's tag against the target network's rules: refused where the network has none,
 * required where sending without one loses the funds, and a 32-bit number for XRP.
 */
export function checkTag(currencyCode: string, tag: string | undefined): string | null {
  const currency = getCurrency(currencyCode);
  const value = tag?.trim() ?? "";
  if (currency.tagSupport === "none") {
    if (value) throw fieldError({ tag: `${currency.code} does not use a tag; leave it out.` });
    return null;
  }
  if (!value) {
    if (currency.tagSupport === "required") {
      throw fieldError({
        tag: `A ${currency.tagName ?? "tag"} is required for ${currency.code}: funds sent to a shared address without one can be lost.`,
      });
    }
    return null;
  }
  if (currency.addressFormat === "ripple" && (!/^\d{1,10}$/.test(value) || Number(value) > 4_294_967_295)) {
    throw fieldError({ tag: "The destination tag must be a whole number from 0 to 4294967295." });
  }
  return value;
}
