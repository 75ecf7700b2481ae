import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Notice } from "@/components/checkout/notice";
import { RefundClaim } from "@/components/refund/refund-claim";
import { getDb } from "@/lib/db/client";
import { readRefund } from "@/lib/refunds/read-refund";
import { refundPageView } from "@/lib/refunds/refund-page-view";
import { hasUnstorableText } from "@/lib/unstorable-text";

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ error?: string | string[] }>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { token } = await params;
  const refund = hasUnstorableText(token) ? undefined : await readRefund(getDb(), { token });
  return {
    title: refund ? `Your refund from ${refund.merchantName}` : "Refund link not found",
    robots: { index: false, follow: false },
    referrer: "no-referrer",
  };
}

const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/**
 * The hosted refund page: no account, the unguessable token is the capability. Shows what the
 * customer is owed and by whom, lets them choose the coin and address, and then follows the payout.
 */
export default async function RefundPage({ params, searchParams }: Props) {
  const { token } = await params;
  const { error } = await searchParams;
  if (hasUnstorableText(token)) notFound();
  const view = await refundPageView(getDb(), token);
  if (!view) notFound();
  return (
    <main id="main" className="mx-auto w-full max-w-md px-4 py-6 sm:py-10">
      <p className="text-sm font-medium text-slate-600 dark:text-slate-400">{view.merchantName}</p>
      <h1 className="mt-1 break-words text-2xl font-bold tracking-tight">
        Your refund from {view.merchantName}
      </h1>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        For &ldquo;{view.invoiceTitle}&rdquo; (invoice {view.invoiceId}): {view.merchantName} is refunding{" "}
        <strong className="whitespace-nowrap">
          {view.amount} {view.currency}
        </strong>
        {view.isFeeTaken ? ", less the network fee" : ""}.
      </p>
      {view.status === "offered" && (
        <>
          <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">
            Choose the coin, enter your address and confirm. The refund is then sent to that address, and this
            page shows its progress. The link works until {utc(view.expiresAt)} and can be used once.
          </p>
          <RefundClaim token={token} initial={view} errorCode={typeof error === "string" ? error : null} />
        </>
      )}
      {view.status === "claimed" && <RefundClaim token={token} initial={view} errorCode={null} />}
      {view.status === "cancelled" && (
        <Notice tone="warning" title="This refund was cancelled">
          <p>
            {view.merchantName} cancelled it before it was claimed. Contact them if you still expect a refund.
          </p>
        </Notice>
      )}
      {view.status === "expired" && (
        <Notice tone="warning" title="This refund link has expired">
          <p>
            It worked until {utc(view.expiresAt)}. Nothing was sent. Ask {view.merchantName} for a new link.
          </p>
        </Notice>
      )}
      {view.supportEmail && (
        <p className="mt-8 text-sm text-slate-700 dark:text-slate-300" data-testid="support-contact">
          Questions about this refund? Write to {view.merchantName} at{" "}
          <a href={`mailto:${view.supportEmail}`} className="underline">
            {view.supportEmail}
          </a>
          .
        </p>
      )}
      <p className="mt-10 text-center text-xs text-slate-500 dark:text-slate-400">
        Refunds processed by Kassa on behalf of {view.merchantName}
      </p>
    </main>
  );
}
