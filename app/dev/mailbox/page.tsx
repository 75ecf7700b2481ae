import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SiteHeader } from "@/components/ui/site-header";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format-date-time";
import { isMailPrintedToLog } from "@/lib/mail/is-mail-printed-to-log";
import { listDevMailbox } from "@/lib/mail/list-dev-mailbox";
import { getConfig } from "@/lib/runtime";

export const metadata: Metadata = { title: "Dev mailbox", robots: { index: false } };

/**
 * The dev mailbox of a sandbox without a mail server: every message Kassa would have e-mailed, to
 * read in the browser (as a local mail catcher would). Anywhere else (production, or a sandbox with
 * SMTP_URL) the page does not exist: a 404, like any unknown path.
 */
export default async function DevMailboxPage() {
  if (!isMailPrintedToLog(getConfig())) notFound();
  const messages = await listDevMailbox(getDb());
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-2xl font-bold tracking-tight">Dev mailbox</h1>
        <p className="mt-3 text-slate-700 dark:text-slate-300">
          This sandbox has no mail server (<code>SMTP_URL</code> is not set), so the messages it would have
          e-mailed are kept here, newest first. A production installation has no such page.
        </p>
        {messages.length === 0 ? (
          <p className="mt-6">No messages yet.</p>
        ) : (
          <ul
            aria-label="Messages"
            className="mt-6 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-700 dark:border-slate-700"
          >
            {messages.map((message) => (
              <li key={message.id} className="py-3">
                <Link
                  href={`/dev/mailbox/${message.id}`}
                  className="font-medium text-brand-700 underline dark:text-slate-100"
                >
                  {message.subject}
                </Link>
                <p className="mt-1 text-sm break-words text-slate-700 dark:text-slate-300">
                  To {message.recipient} · {formatDateTime(message.createdAt)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  );
}
