import "server-only";

import { eq } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db, Tx } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { KassaError } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { INVOICE_REPRICE_QUEUE } from "@/lib/jobs/queues";
import type { Pricing } from "@/lib/rates/pricing";
import type { InvoiceSettings } from "./create-invoice";
import { type InvoiceRecord, loadInvoiceById } from "./load-invoice";
import { priceInvoice } from "./price-invoice";
import { isLockLive, lockExpiry } from "./rate-lock";

/** What re-pricing reads of the invoice settings: the pricing (the lock's length, the spread), the clock. */
export type PriceLockSettings = Pick<InvoiceSettings, "pricing" | "clock">;

/**
 * Whether a pending invoice asks a stale price (DESIGN.md section 3): its payment currency is fixed,
 * nothing has been paid to it, it can still be paid, and its locked rate has expired (or was never
 * stored: rows migrated from a rate of 0). Asking the old amount after the price moved would have the
 * customer pay it and the merchant receive less than the invoice amount.
 */
export function needsNewPrice(
  record: InvoiceRecord,
  settings: PriceLockSettings,
  now = (settings.clock ?? systemClock).now(),
): boolean {
  const { invoice } = record;
  if (record.status !== "pending" || invoice.senderCurrency === null) return false;
  if (invoice.paidAmount > 0n) return false;
  if (invoice.expiresAt && invoice.expiresAt <= now) return false;
  return !isLockLive(record, settings.pricing.rateLockSeconds, now);
}

/**
 * When `record` will ask for a new price (its lock ends while it waits for a first payment), in
 * epoch milliseconds; null when it never will as it stands (paid, final, no currency).
 */
export function needsNewPriceAt(record: InvoiceRecord, settings: PriceLockSettings): number | null {
  const { invoice } = record;
  if (record.status !== "pending" || invoice.senderCurrency === null || invoice.paidAmount > 0n) return null;
  return lockExpiry(record, settings.pricing.rateLockSeconds)?.getTime() ?? null;
}

/** How long the re-pricing job waits to try again when no rate could be had at the lock's end. */
export const REPRICE_RETRY_SECONDS = 60;

/**
 * Queues the re-pricing of `record` for the end of its rate lock, in the transaction that started
 * the lock (fixing the currency, switching it, re-pricing): the price moves on time whether or not
 * anyone has the checkout open. A timer invoice's lock ends with its deadline, where the expiry job
 * closes it instead.
 */
export async function scheduleRepricing(tx: Tx, record: InvoiceRecord, settings: PriceLockSettings) {
  if (record.invoice.expiresAt !== null) return;
  const endsAt = needsNewPriceAt(record, settings);
  if (endsAt === null) return;
  await enqueueJob(tx, {
    queue: INVOICE_REPRICE_QUEUE,
    payload: { invoiceId: record.id, lockSeconds: settings.pricing.rateLockSeconds },
    runAt: new Date(endsAt),
    dedupeKey: `invoice-reprice:${record.id}:${endsAt}`,
  });
}

/**
 * The re-pricing job: at the end of an untimed invoice's lock, a fresh price (and lock, and the next
 * job) if it still waits for a first payment; nothing if it was paid, closed or re-priced since.
 * When no rate can be had now it looks again in REPRICE_RETRY_SECONDS. The invoice's trigger
 * announces the new price to open checkout pages like any other change.
 */
export async function repriceInvoiceJob(
  db: Db,
  input: { invoiceId: number; pricing: Pricing; clock: Clock },
): Promise<void> {
  const settings: PriceLockSettings = { pricing: input.pricing, clock: input.clock };
  await inTransaction(db, async (tx) => {
    const locked = await loadInvoiceById(tx, input.invoiceId, true);
    if (!locked) return;
    const after = await repriceInvoiceIn(tx, locked, settings);
    const now = input.clock.now();
    if (!needsNewPrice(after, settings, now)) return;
    const retryAt = now.getTime() + REPRICE_RETRY_SECONDS * 1000;
    await enqueueJob(tx, {
      queue: INVOICE_REPRICE_QUEUE,
      payload: { invoiceId: after.id, lockSeconds: input.pricing.rateLockSeconds },
      runAt: new Date(retryAt),
      dedupeKey: `invoice-reprice:${after.id}:retry:${retryAt}`,
    });
  });
}

/**
 * Re-prices a pending invoice whose lock expired before anything was paid, in the caller's transaction on
 * a row it holds FOR UPDATE: a fresh rate, amount due and `fixed_at`; the address stays. A racing re-pricer
 * finds the lock live and changes nothing; a payment seen meanwhile takes the same lock, so it is rated
 * before (no re-price) or after. Without a rate now, the invoice is left as is (judged by value).
 */
export async function repriceInvoiceIn(
  tx: Tx,
  record: InvoiceRecord,
  settings: PriceLockSettings,
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
      pricing: settings.pricing,
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
  const repriced = (await loadInvoiceById(tx, record.id, true))!;
  await scheduleRepricing(tx, repriced, settings);
  return repriced;
}

/**
 * The checkout's entry: re-prices the invoice when it asks a stale price (a page opened in the
 * moment between the lock's end and its job), else answers it as read.
 */
export async function refreshInvoicePrice(
  db: Db,
  record: InvoiceRecord,
  settings: PriceLockSettings,
): Promise<InvoiceRecord> {
  if (!needsNewPrice(record, settings)) return record;
  return inTransaction(db, async (tx) => {
    const locked = await loadInvoiceById(tx, record.id, true);
    return locked ? repriceInvoiceIn(tx, locked, settings) : record;
  });
}
