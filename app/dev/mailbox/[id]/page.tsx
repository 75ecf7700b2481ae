import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SiteHeader } from "@/components/ui/site-header";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format-date-time";
import { isMailPrintedToLog } from "@/lib/mail/is-mail-printed-to-log";
import { openDevMail } from "@/lib/mail/open-dev-mail";
import { getConfig, getSecretBox } from "@/lib/runtime";
import { MailText } from "./mail-text";

export const metadata: Metadata = { title: "Dev mailbox", robots: { index: false } };

/** One message of the dev mailbox (app/dev/mailbox/page.tsx), its links followable; a 404 where there is no dev mailbox. */
export default async function DevMailPage({ params }: { params: Promise<{ id: string }> }) {
  if (!isMailPrintedToLog(getConfig())) notFound();
  const { id } = await params;
  if (!/^[1-9]\d{0,15}$/.test(id)) notFound();
  const message = await openDevMail(getDb(), getSecretBox(), Number(id));
  if (!message) notFound();
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-10">
        <p>
          <Link href="/dev/mailbox" className="text-brand-700 underline dark:text-slate-100">
            ← Dev mailbox
          </Link>
        </p>
        <h1 className="mt-4 text-2xl font-bold tracking-tight break-words">{message.subject}</h1>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-700 dark:text-slate-300">
          <dt>To</dt>
          <dd className="break-words">{message.recipient}</dd>
          <dt>Kept</dt>
          <dd>{formatDateTime(message.createdAt)}</dd>
        </dl>
        <MailText text={message.text} />
      </main>
    </>
  );
}
