import "server-only";

import { eq } from "drizzle-orm";
import { queueCallback } from "@/lib/callbacks/queue-callback";
import type { Tx } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";

/**
 * The public API's optional "deposits less than minimum amount" callback: queued (in the caller's
 * transaction) when a held below-minimum deposit is seen, only for a merchant who turned it on
 * (dashboard Callbacks page, or `cli merchants below-minimum-callback`). Off by default, so a
 * merchant's handler that knows nothing of it never receives a deposit that will not confirm.
 */
export async function announceBelowMinimum(
  tx: Tx,
  input: { merchantId: number; transactionId: number },
): Promise<void> {
  const [merchant] = await tx
    .select({ isOn: merchants.isBelowMinimumCallbackOn })
    .from(merchants)
    .where(eq(merchants.id, input.merchantId));
  if (merchant?.isOn)
    await queueCallback(tx, { transactionId: input.transactionId, status: "below_minimum" });
}
