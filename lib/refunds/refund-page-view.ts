import "server-only";

import { type Clock, systemClock } from "@/lib/clock";
import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { readSupportContact } from "@/lib/merchants/read-support-contact";
import { formatAmountShort } from "@/lib/money";
import { priceIssuedRefund } from "./price-issued-refund";
import { readRefund } from "./read-refund";

/** One coin the customer may choose on the refund page, with what they would receive in it. */
export type RefundOptionView = {
  currency: string;
  name: string;
  /** Decimal text, or null when it cannot be priced right now. */
  receives: string | null;
  networkFee: string;
  minimum: string;
  isUnderMinimum: boolean;
  tag: { name: string; isRequired: boolean } | null;
};

/** What the hosted refund page shows, as JSON-safe values (the page's client part polls it). */
export type RefundPageView = {
  merchantName: string;
  /** The merchant's support address (Settings), where the customer can ask about the refund. */
  supportEmail: string | null;
  invoiceTitle: string;
  invoiceId: number;
  status: "offered" | "claimed" | "cancelled" | "expired";
  amount: string;
  currency: string;
  isFeeTaken: boolean;
  expiresAt: string;
  options: RefundOptionView[];
  claim: { currency: string; address: string; tag: string | null } | null;
  payout: { status: string; amount: string; currency: string; txid: string | null } | null;
};

/** The refund page's view for a link token, or undefined when no refund has it. */
export async function refundPageView(
  db: Executor,
  token: string,
  clock: Clock = systemClock,
): Promise<RefundPageView | undefined> {
  const refund = await readRefund(db, { token }, clock);
  if (!refund) return undefined;
  const options: RefundOptionView[] = [];
  if (refund.status === "offered") {
    for (const code of refund.currencies) {
      const currency = getCurrency(code);
      const price = await priceIssuedRefund(db, refund, code).catch(() => null);
      options.push({
        currency: code,
        name: currency.name,
        receives: price ? formatAmountShort(price.receives) : null,
        networkFee: formatAmountShort(currency.networkFee),
        minimum: formatAmountShort(currency.minimumWithdrawalAmount),
        isUnderMinimum: price?.isUnderMinimum ?? true,
        tag:
          currency.tagSupport === "none"
            ? null
            : { name: currency.tagName ?? "Tag", isRequired: currency.tagSupport === "required" },
      });
    }
  }
  return {
    merchantName: refund.merchantName,
    supportEmail: await readSupportContact(db, refund.merchantId),
    invoiceTitle: refund.invoiceTitle,
    invoiceId: refund.invoiceId,
    status: refund.status,
    amount: formatAmountShort(refund.owedAmount),
    currency: refund.payCurrency,
    isFeeTaken: refund.terms.feePaidBy === "customer",
    expiresAt: refund.expiresAt.toISOString(),
    options,
    claim: refund.claim,
    payout: refund.payout
      ? {
          status: refund.payout.status,
          amount: formatAmountShort(refund.payout.amount),
          currency: refund.payout.currency,
          txid: refund.payout.txid,
        }
      : null,
  };
}
