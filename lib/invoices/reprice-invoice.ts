import "server-only";

import { eq } from "drizzle-orm";
import { systemClock } from "@/lib/clock";
import type { Db, Tx } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { KassaError } from "@/lib/errors";
import { type InvoiceSettings, rateLockSecondsOf } from "./create-invoice";
import { type InvoiceRecord, loadInvoiceById } from "./load-invoice";
import { priceInvoice } from "./price-invoice";
import { isLockLive, lockExpiry } from "./rate-lock";

/**
 * Whether a pending invoice asks a stale price (DESIGN.md section 3): its payment currency is fixed,
 * nothing has been paid to it, it can still be paid, and its locked rate has expired (or was never
 * stored: rows migrated from a rate of 0). Asking the old amount after the price moved would have the
 * customer pay it and the merchant receive less than the invoice amount.
 */
export function needsNewPrice(
  record: InvoiceRecord,
  settings: InvoiceSettings,
  now = (settings.clock ?? systemClock).now(),
): boolean {
  const { invoice } = record;
  if (record.status !== "pending" || invoice.senderCurrency === null) return false;
  if (invoice.paidAmount > 0n) return false;
  if (invoice.expiresAt && invoice.expiresAt <= now) return false;
  return !isLockLive(record, rateLockSecondsOf(settings), now);
}

/**
 * When a page showing `record` should ask for a new price (its lock ends while it waits for a first
 * payment), in epoch milliseconds; null when it never will as it stands (paid, final, no currency).
 */
export function needsNewPriceAt(record: InvoiceRecord, settings: InvoiceSettings): number | null {
  const { invoice } = record;
  if (record.status !== "pending" || invoice.senderCurrency === null || invoice.paidAmount > 0n) return null;
  return lockExpiry(record, rateLockSecondsOf(settings))?.getTime() ?? null;
}

/**
 * Re-prices a pending invoice whose lock expired before anything was paid, in the caller's
 * transaction on a row it holds locked (FOR UPDATE): a fresh rate and amount due, a new `fixed_at`
 * and so a new lock; the address stays. Two tabs re-pricing at once take turns on the row lock, and
 * the second finds the lock live again and changes nothing. A payment seen meanwhile holds the same
 * row lock, so it is rated either before (and the invoice is then no longer re-priced) or after.
 * When no rate can be had now, the invoice is left as it is (settlement judges payments by value).
 */
export async function repriceInvoiceIn(
  tx: Tx,
  record: InvoiceRecord,
  settings: InvoiceSettings,
): Promise<InvoiceRecord> {
  const now = (settings.clock ?? systemClock).now();
  if (!needsNewPrice(record, settings, now)) return record;
  let price: Awaited<ReturnType<typeof priceInvoice>>;
  try {
    price = await priceInvoice(tx, {
      merchantId: record.merchantId,
      invoiceCurrency: record.currency,
      amount: record.amount,
      payCurrency: record.invoice.senderCurrency!,
      spreadPpm: settings.spreadPpm,
      field: "currency",
    });
  } catch (error) {
    if (error instanceof KassaError && error.code === "validation_failed") return record;
    throw error;
  }
  await tx
    .update(invoices)
    .set({
      senderAmount: price.senderAmount,
      rateNumerator: price.rate.numerator,
      rateDenominator: price.rate.denominator,
      spreadPpm: price.spreadPpm,
      fixedAt: now,
    })
    .where(eq(invoices.transactionId, record.id));
  return (await loadInvoiceById(tx, record.id, true))!;
}

/** The checkout's entry: re-prices the invoice when it asks a stale price, else answers it as read. */
export async function refreshInvoicePrice(
  db: Db,
  record: InvoiceRecord,
  settings: InvoiceSettings,
): Promise<InvoiceRecord> {
  if (!needsNewPrice(record, settings)) return record;
  return inTransaction(db, async (tx) => {
    const locked = await loadInvoiceById(tx, record.id, true);
    return locked ? repriceInvoiceIn(tx, locked, settings) : record;
  });
}
