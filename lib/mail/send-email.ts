import "server-only";

import { and, eq, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { emails, merchants } from "@/lib/db/schema";
import { sealedBodyContext } from "./queue-email";

export type MailSettings = {
  smtpUrl: string | undefined;
  from: string;
  /** Opens messages kept sealed (those with a live link); the job fails without it rather than send a redacted link. */
  box?: SecretBox;
  /**
   * Sandbox mode without SMTP: the message, its link included, is printed to this process's log, and
   * a sealed copy is kept for the dev mailbox (/dev/mailbox, lib/mail/read-dev-mailbox.ts), so that
   * someone trying Kassa can finish a sign-up, a reset or an invitation. Never in production, where
   * a link in a log would be a live credential in the wrong hands.
   */
  isPrintedWithoutSmtp?: boolean;
  /** Where the dev mailbox is served, named in the printed message (sandbox without SMTP only). */
  mailboxUrl?: string;
};

const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    const timeouts = "connectionTimeout=10000&greetingTimeout=10000&socketTimeout=20000";
    transport = nodemailer.createTransport(`${url}${url.includes("?") ? "&" : "?"}${timeouts}`);
    transports.set(url, transport);
  }
  return transport;
}

type Message = typeof emails.$inferSelect;

function openBody(message: Message, settings: MailSettings): string {
  if (!message.bodySealed) return message.body;
  if (!settings.box) throw new Error("this message is sealed: the master key is needed to send it");
  return settings.box.open(message.bodySealed, sealedBodyContext(message.id));
}

function printedMessage(message: Message, text: string, mailboxUrl: string | undefined): string {
  const rule = "─".repeat(72);
  return [
    rule,
    `[mail] no SMTP_URL in this sandbox, so the message is printed here instead of sent`,
    ...(mailboxUrl ? [`[mail] read it in a browser too: ${mailboxUrl}`] : []),
    `To: ${message.recipient}`,
    `Subject: ${message.subject}`,
    "",
    text,
    rule,
  ].join("\n");
}

/**
 * Where a customer's reply goes: the merchant's support address, for messages about one of their
 * transactions (the customer's receipts, refunds, late payments). Kassa's own mail to merchant
 * teams (sign-in, invitations) has none. Read when sent, so a retried message follows the setting.
 */
async function replyToOf(db: Db, message: Message): Promise<string | undefined> {
  if (message.merchantId === null || message.transactionId === null) return undefined;
  const [row] = await db
    .select({ email: merchants.supportEmail })
    .from(merchants)
    .where(eq(merchants.id, message.merchantId));
  return row?.email ?? undefined;
}

/**
 * The e-mail job: sends a queued message over SMTP_URL, or without it keeps it `stored` (printed to the
 * log in sandbox). A failed send throws, for the runner's retry; at least once (a crash may resend), but a
 * finished message is never sent again. A sealed body (a live link) is opened only to send; it is dropped
 * once sent, or at once without SMTP, except in a sandbox, where the dev mailbox opens it.
 */
export async function sendQueuedEmail(db: Db, emailId: number, settings: MailSettings): Promise<void> {
  const [message] = await db.select().from(emails).where(eq(emails.id, emailId));
  if (!message || message.status === "sent" || message.status === "stored") return;
  if (!settings.smtpUrl) {
    const isKept = settings.isPrintedWithoutSmtp === true;
    if (isKept) console.log(printedMessage(message, openBody(message, settings), settings.mailboxUrl));
    await db
      .update(emails)
      .set({ status: "stored", ...(isKept ? {} : { bodySealed: null }) })
      .where(eq(emails.id, emailId));
    return;
  }
  const text = openBody(message, settings);
  const replyTo = await replyToOf(db, message);
  await db
    .update(emails)
    .set({ attempts: sql`${emails.attempts} + 1` })
    .where(eq(emails.id, emailId));
  try {
    await transportFor(settings.smtpUrl).sendMail({
      from: settings.from,
      to: message.recipient,
      subject: message.subject,
      text,
      ...(replyTo && { replyTo }),
      headers: { "X-Kassa-Email-Id": String(message.id) },
    });
  } catch (error) {
    await db
      .update(emails)
      .set({ lastError: error instanceof Error ? error.message.slice(0, 500) : String(error) })
      .where(eq(emails.id, emailId));
    throw error;
  }
  await db
    .update(emails)
    .set({ status: "sent", sentAt: sql`now()`, lastError: null, bodySealed: null })
    .where(and(eq(emails.id, emailId)));
}
