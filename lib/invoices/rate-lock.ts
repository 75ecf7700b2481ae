import "server-only";

import type { InvoiceRecord } from "./load-invoice";

/**
 * When an invoice's locked rate stops holding: with a timer, its deadline to pay; without one, the
 * fix period (KASSA_RATE_LOCK_SECONDS) after the rate was fixed. Null while no rate is fixed.
 */
export function lockExpiry(record: InvoiceRecord, rateLockSeconds: number): Date | null {
  const { invoice } = record;
  if (invoice.expiresAt) return invoice.expiresAt;
  if (!invoice.fixedAt) return null;
  return new Date(invoice.fixedAt.getTime() + rateLockSeconds * 1000);
}

/** Whether the invoice's locked rate still holds at `now` (a missing stored rate never does). */
export function isLockLive(record: InvoiceRecord, rateLockSeconds: number, now: Date): boolean {
  const { invoice } = record;
  if (invoice.rateNumerator === null || invoice.rateDenominator === null) return false;
  const expiry = lockExpiry(record, rateLockSeconds);
  return expiry !== null && now < expiry;
}
