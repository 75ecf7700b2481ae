import "server-only";

import type { Executor } from "@/lib/db/client";
import { readRefund } from "@/lib/refunds/read-refund";
import { toRefundResponse } from "@/lib/refunds/to-refund-response";
import { findCallbackDestination } from "./find-callback-destination";
import { storeCallback } from "./store-callback";

/**
 * Queues `refund.<status>` for a refund's new state, in the caller's transaction, on its invoice's
 * transaction (so it goes where the invoice's callbacks go, after them, and shows in events/list
 * under the invoice). The body is the refund as the API reads it, without its claim link.
 */
export async function queueRefundCallback(
  tx: Executor,
  input: { merchantId: number; refundId: number },
): Promise<number | null> {
  const refund = await readRefund(tx, { merchantId: input.merchantId, id: input.refundId });
  if (!refund) return null;
  const { url } = await findCallbackDestination(tx, {
    merchantId: refund.merchantId,
    transactionId: refund.invoiceId,
  });
  if (!url) return null;
  return storeCallback(tx, {
    merchantId: refund.merchantId,
    transactionId: refund.invoiceId,
    event: `refund.${refund.status}`,
    url,
    body: JSON.stringify(toRefundResponse(refund)),
  });
}
