import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { isCallbackStatus } from "@/lib/transactions/statuses";
import { callbackBodyOf } from "./callback-bodies";
import { findCallbackDestination } from "./find-callback-destination";
import { storeCallback } from "./store-callback";

/**
 * Queues a callback for a transaction's new status, in the caller's transaction: the callback is
 * committed with the change it reports, or not at all. The body is the transactions/info object
 * as it stands now; for an invoice, the public API's invoice callback (its own status, `fixed_at`,
 * `expires_at`: lib/callbacks/build-invoice-callback.ts), as registered in callback-bodies.ts. `event` names a change that is not a new
 * status (a payment credited to an invoice whose status stays: `invoice.late_payment`); it defaults
 * to `<type>.<status>`. The URL is the one deliveries use (find-callback-destination.ts): the invoice's
 * own `callback_url`, else the merchant's. Nothing is queued when there is none.
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
