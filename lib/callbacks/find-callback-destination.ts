import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { readCallbackUrl } from "./read-callback-url";

export type CallbackDestination = {
  /** Where the callback goes now; null when the merchant has no callback URL (callbacks are off). */
  url: string | null;
  /** The invoice's own `callback_url`, which the merchant's setting does not change. */
  isInvoiceOwn: boolean;
};

/**
 * Where a transaction's callbacks go at this moment: the invoice's own `callback_url` when it was
 * created with one, otherwise the merchant's callback URL as it is now, so fixing the URL in the
 * dashboard redirects every pending retry (instead of retrying to the old URL).
 */
export async function findCallbackDestination(
  db: Executor,
  input: { merchantId: number; transactionId: number },
): Promise<CallbackDestination> {
  const [invoice] = await db
    .select({ url: invoices.callbackUrl })
    .from(invoices)
    .where(eq(invoices.transactionId, input.transactionId));
  if (invoice?.url) return { url: invoice.url, isInvoiceOwn: true };
  return { url: await readCallbackUrl(db, input.merchantId), isInvoiceOwn: false };
}
