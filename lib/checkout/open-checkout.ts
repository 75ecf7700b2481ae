import "server-only";

import type { AccountKeys } from "@/lib/chain/account-keys";
import { systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { KassaError, notFound } from "@/lib/errors";
import type { InvoiceSettings } from "@/lib/invoices/create-invoice";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { type InvoiceRecord, loadInvoiceByToken } from "@/lib/invoices/load-invoice";
import { refreshInvoicePrice } from "@/lib/invoices/reprice-invoice";

/**
 * Loads an invoice for its checkout page. When the merchant fixed the payment currency at creation,
 * opening the page is the customer's "choice": the address is handed out now (idempotently). A
 * pending invoice whose rate lock expired before anything was paid is re-priced before it is shown.
 */
export async function openCheckout(
  db: Db,
  input: { token: string; settings: InvoiceSettings; keys: AccountKeys },
): Promise<InvoiceRecord> {
  const record = await loadInvoiceByToken(db, input.token);
  if (!record) throw notFound("No such invoice.");
  const isAwaitingAddress = record.status === "created" && record.invoice.senderCurrency !== null;
  const isOpen =
    !record.invoice.expiresAt || record.invoice.expiresAt > (input.settings.clock ?? systemClock).now();
  if (!isAwaitingAddress || !isOpen) return refreshInvoicePrice(db, record, input.settings);
  try {
    return await fixInvoiceCurrency(db, { ...input, currency: record.invoice.senderCurrency! });
  } catch (error) {
    if (error instanceof KassaError && error.code === "validation_failed")
      return (await loadInvoiceByToken(db, input.token))!;
    throw error;
  }
}
