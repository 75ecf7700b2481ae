import "server-only";

import type { Executor } from "@/lib/db/client";
import { callbacks } from "@/lib/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { CALLBACK_QUEUE } from "@/lib/jobs/queues";

/** Stores one callback and its delivery job, in the caller's transaction. */
export async function storeCallback(
  tx: Executor,
  input: { merchantId: number; transactionId: number; event: string; url: string; body: string },
): Promise<number> {
  const [created] = await tx.insert(callbacks).values(input).returning({ id: callbacks.id });
  await enqueueJob(tx, { queue: CALLBACK_QUEUE, payload: { callbackId: created!.id }, maxAttempts: 50 });
  return created!.id;
}
