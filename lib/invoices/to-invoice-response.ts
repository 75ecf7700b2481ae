import "server-only";

import type { z } from "zod";
import { formatAmount } from "@/lib/money";
import type { invoiceResponse } from "@/lib/schemas/invoices";
import type { InvoiceRecord } from "./load-invoice";

const unixSeconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

export function checkoutUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, "")}/pay/${token}`;
}

/** Seconds until the deadline while the invoice can still be paid; null when there is no running timer. */
export function secondsLeft(record: InvoiceRecord, now = new Date()): number | null {
  const { expiresAt } = record.invoice;
  if (!expiresAt || (record.status !== "created" && record.status !== "pending")) return null;
  return Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
}

/** The `data` object of spec 2.3. */
export function toInvoiceResponse(record: InvoiceRecord, baseUrl: string): z.input<typeof invoiceResponse> {
  const { invoice } = record;
  return {
    id: record.id,
    url: checkoutUrl(baseUrl, invoice.token),
    foreign_id: record.foreignId,
    end_user_reference: record.endUserReference,
    address: record.address?.address ?? null,
    title: invoice.title,
    status: record.status,
    currency: record.currency,
    amount: formatAmount(record.amount),
    sender_currency: invoice.senderCurrency,
    sender_amount: invoice.senderAmount === null ? null : formatAmount(invoice.senderAmount),
    fixed_at: unixSeconds(invoice.fixedAt),
    // Filled once the currency and rate are fixed, as the public API does; until then the deadline
    // (for choosing a currency) is shown only on the checkout page.
    release_at: invoice.hasTimer && invoice.fixedAt ? unixSeconds(invoice.expiresAt) : null,
    seconds_left: invoice.fixedAt ? secondsLeft(record) : null,
  };
}
