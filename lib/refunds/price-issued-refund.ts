import "server-only";

import type { Executor } from "@/lib/db/client";
import { priceRefundPayout, type RefundPayoutPrice } from "./price-refund-payout";
import type { RefundView } from "./read-refund";

/** What an issued refund sends in `currency`, on the terms it was issued with. */
export function priceIssuedRefund(
  db: Executor,
  refund: RefundView,
  currency: string,
): Promise<RefundPayoutPrice> {
  return priceRefundPayout(db, {
    merchantId: refund.merchantId,
    invoiceCurrency: refund.invoiceCurrency,
    payCurrency: refund.payCurrency,
    owedAmount: refund.owedAmount,
    paymentValue: refund.paymentValue,
    rateBasis: refund.terms.rateBasis,
    feePaidBy: refund.terms.feePaidBy,
    currency,
  });
}
