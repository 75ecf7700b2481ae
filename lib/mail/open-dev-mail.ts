import "server-only";

import { and, eq, inArray } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Executor } from "@/lib/db/client";
import { emails } from "@/lib/db/schema";
import { sealedBodyContext } from "./queue-email";

export type DevMail = { id: number; recipient: string; subject: string; createdAt: Date; text: string };

/**
 * One message of the dev mailbox as it would have been e-mailed: a message with a live link is
 * opened from its sealed copy (kept sealed at rest, lib/mail/send-email.ts), so the link works
 * while the database holds it only redacted in clear. Null for an unknown or delivered message.
 */
export async function openDevMail(db: Executor, box: SecretBox, id: number): Promise<DevMail | null> {
  const [message] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.id, id), inArray(emails.status, ["stored", "queued"])));
  if (!message) return null;
  const text = message.bodySealed
    ? box.open(message.bodySealed, sealedBodyContext(message.id))
    : message.body;
  return {
    id: message.id,
    recipient: message.recipient,
    subject: message.subject,
    createdAt: message.createdAt,
    text,
  };
}
