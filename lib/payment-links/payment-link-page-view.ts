import "server-only";

import type { Clock } from "@/lib/clock";
import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { formatAmount } from "@/lib/money";
import type { PaymentLinkStatus, SenderType } from "@/lib/schemas/payment-links";
import { loadPaymentLinkByToken } from "./load-payment-link";
import { senderTypesOf } from "./to-payment-link-response";
import { unavailableMessage } from "./unavailable-message";

/**
 * What the link's public page (and GET /api/link/<token>) shows a customer: nothing of the merchant's
 * figures (uses, money received), only what paying needs. Amounts on the wire's 8-digit form.
 */
export type PaymentLinkPageView = {
  token: string;
  merchant_name: string;
  support_email: string | null;
  title: string;
  description: string | null;
  currency: string;
  /** Fraction digits the customer may enter in `currency`. */
  precision: number;
  /** The fixed amount; null when the customer enters it. */
  amount: string | null;
  /** The least the customer may enter: the link's minimum, else the currency's. */
  min_amount: string;
  max_amount: string | null;
  sender_types: SenderType[];
  status: PaymentLinkStatus;
  /** Why it cannot be paid, in the customer's words; null while active. */
  message: string | null;
};

export async function paymentLinkPageView(
  db: Executor,
  input: { token: string; clock?: Clock },
): Promise<PaymentLinkPageView | undefined> {
  const record = await loadPaymentLinkByToken(db, input);
  if (!record) return undefined;
  const { link } = record;
  const currency = getCurrency(link.currency);
  return {
    token: link.token,
    merchant_name: record.merchantName,
    support_email: record.supportEmail,
    title: link.title,
    description: link.description,
    currency: currency.code,
    precision: currency.precision,
    amount: link.amount === null ? null : formatAmount(link.amount),
    min_amount: formatAmount(link.minAmount ?? currency.minimumAmount),
    max_amount: link.maxAmount === null ? null : formatAmount(link.maxAmount),
    sender_types: senderTypesOf(link),
    status: record.status,
    message:
      record.status === "active"
        ? null
        : unavailableMessage({
            status: record.status,
            merchantName: record.merchantName,
            openInvoices: record.openInvoices,
          }),
  };
}
