import "server-only";

import { eq } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
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
  /**
   * A live token inside `body` (a sign-up, reset or invitation link's): the message is kept sealed
   * under the master key until it is sent, and the stored `body` shows the link without it.
   */
  secret?: { token: string; box: SecretBox };
};

/** What a sent (or kept) message shows in place of its link's token. */
export const REDACTED_TOKEN = "[removed once sent]";

/** Binds a sealed message to its row: copied onto another row, it does not open. */
export const sealedBodyContext = (emailId: number) => `emails:body:${emailId}`;

/**
 * Keeps the message and queues its delivery, in the caller's transaction: an e-mail owed because
 * of a state change is never lost, even if the process dies right after the commit. A message with
 * a live token is stored redacted, the whole of it sealed beside (lib/mail/send-email.ts drops the
 * sealed copy once sent), so a copy of the database holds no usable link.
 */
export async function queueEmail(db: Executor, input: EmailInput): Promise<number> {
  const { secret } = input;
  const [row] = await db
    .insert(emails)
    .values({
      merchantId: input.merchantId,
      transactionId: input.transactionId ?? null,
      kind: input.kind,
      recipient: input.recipient,
      subject: input.subject,
      body: secret ? input.body.replaceAll(secret.token, REDACTED_TOKEN) : input.body,
    })
    .returning({ id: emails.id });
  const id = row!.id;
  if (secret)
    await db
      .update(emails)
      .set({ bodySealed: secret.box.seal(input.body, sealedBodyContext(id)) })
      .where(eq(emails.id, id));
  await enqueueJob(db, { queue: EMAIL_QUEUE, payload: { emailId: id }, maxAttempts: 8 });
  return id;
}
