import "server-only";

import type { Executor } from "@/lib/db/client";
import { emails } from "@/lib/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { EMAIL_QUEUE } from "@/lib/jobs/queues";

export type EmailInput = {
  merchantId: number | null;
  transactionId?: number | null;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
};

/**
 * Keeps the message and queues its delivery, in the caller's transaction: an e-mail owed because
 * of a state change is never lost, even if the process dies right after the commit.
 */
export async function queueEmail(db: Executor, input: EmailInput): Promise<number> {
  const [row] = await db
    .insert(emails)
    .values({
      merchantId: input.merchantId,
      transactionId: input.transactionId ?? null,
      kind: input.kind,
      recipient: input.recipient,
      subject: input.subject,
      body: input.body,
    })
    .returning({ id: emails.id });
  await enqueueJob(db, { queue: EMAIL_QUEUE, payload: { emailId: row!.id }, maxAttempts: 8 });
  return row!.id;
}
