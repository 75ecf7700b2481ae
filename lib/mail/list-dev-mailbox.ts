import "server-only";

import { desc, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { emails } from "@/lib/db/schema";

export type DevMailboxEntry = { id: number; recipient: string; subject: string; createdAt: Date };

/**
 * The dev mailbox's list (/dev/mailbox): the installation's newest messages that no mail server
 * took, newest first, every merchant's (as a local mail catcher shows every message it caught).
 * Only a sandbox without SMTP serves it (lib/mail/is-mail-printed-to-log.ts).
 */
export async function listDevMailbox(db: Executor, limit = 50): Promise<DevMailboxEntry[]> {
  return db
    .select({
      id: emails.id,
      recipient: emails.recipient,
      subject: emails.subject,
      createdAt: emails.createdAt,
    })
    .from(emails)
    .where(inArray(emails.status, ["stored", "queued"]))
    .orderBy(desc(emails.id))
    .limit(limit);
}
