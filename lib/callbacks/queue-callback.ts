import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { isCallbackStatus } from "@/lib/transactions/statuses";
import { callbackBodyOf } from "./callback-bodies";
import { findCallbackDestination } from "./find-callback-destination";
import { storeCallback } from "./store-callback";

/**
 * Queues a callback for a transaction's new status in the caller's transaction, so it commits with the
 * change. Body: transactions/info now; an invoice's is its public callback (build-invoice-callback.ts, via
 * callback-bodies.ts). `event` names a non-status change (`invoice.late_payment`), default `<type>.<status>`.
 * To the invoice's `callback_url`, else the merchant's (find-callback-destination.ts); neither: returns null.
 */
export async function queueCallback(
  tx: Executor,
  input: { transactionId: number; status: string; event?: string },
): Promise<number | null> {
  const [row] = await tx
    .select({ type: transactions.type, merchantId: transactions.merchantId })
    .from(transactions)
    .where(eq(transactions.id, input.transactionId));
  if (!row || !isCallbackStatus(row.type, input.status)) return null;
  const { url } = await findCallbackDestination(tx, {
    merchantId: row.merchantId,
    transactionId: input.transactionId,
  });
  if (!url) return null;
  const body = JSON.stringify(await callbackBodyOf(row.type)(tx, input.transactionId));
  return storeCallback(tx, {
    merchantId: row.merchantId,
    transactionId: input.transactionId,
    event: input.event ?? `${row.type}.${input.status}`,
    url,
    body,
  });
}
