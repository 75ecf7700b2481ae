import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Notice } from "@/components/checkout/notice";
import { PaymentLinkForm } from "@/components/checkout/payment-link-form";
import { getDb } from "@/lib/db/client";
import { formatMoney } from "@/lib/format-money";
import { paymentLinkPageView } from "@/lib/payment-links/payment-link-page-view";
import { hasUnstorableText } from "@/lib/unstorable-text";

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ refused?: string | string[] }>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { token } = await params;
  const view = hasUnstorableText(token) ? undefined : await paymentLinkPageView(getDb(), { token });
  return {
    title: view ? `Pay ${view.merchant_name}: ${view.title}` : "Payment link not found",
    robots: { index: false, follow: false },
  };
}

/**
 * A payment link's public page (docs/decisions/payment-links.md): what is sold, the amount or a field
 * for it, and the customer's details; continuing creates the customer's own invoice and opens its
 * checkout. A link that takes no visit any more says why, in the customer's words.
 */
export default async function PaymentLinkPage({ params, searchParams }: Props) {
  const { token } = await params;
  const { refused } = await searchParams;
  if (hasUnstorableText(token)) notFound();
  const view = await paymentLinkPageView(getDb(), { token });
  if (!view) notFound();
  return (
    <main id="main" className="mx-auto w-full max-w-md px-4 py-6 sm:py-10">
      <p className="text-sm font-medium text-slate-600 dark:text-slate-400">{view.merchant_name}</p>
      <h1 className="mt-1 break-words text-2xl font-bold tracking-tight">{view.title}</h1>
      {view.description && (
        <p className="mt-2 whitespace-pre-line break-words text-slate-700 dark:text-slate-300">
          {view.description}
        </p>
      )}
      {view.amount !== null && (
        <p className="mt-4 text-3xl font-bold tracking-tight" data-testid="link-amount">
          {formatMoney(view.amount, view.currency).exact}
        </p>
      )}
      {view.message === null ? (
        <PaymentLinkForm
          view={view}
          initialError={
            refused === "1"
              ? "That could not be started. Please check each field (the amount, a date of birth as YYYY-MM-DD) and try again."
              : null
          }
        />
      ) : (
        <Notice tone="warning" title="This link cannot be paid">
          <p>{view.message}</p>
        </Notice>
      )}
      {view.support_email && (
        <p className="mt-10 text-center text-sm">
          Questions? Write to {view.merchant_name} at{" "}
          <a
            href={`mailto:${view.support_email}`}
            className="break-all font-medium text-indigo-700 underline hover:text-indigo-900 dark:text-indigo-300"
          >
            {view.support_email}
          </a>
          .
        </p>
      )}
      <p className="mt-10 text-center text-xs text-slate-500 dark:text-slate-400">
        Payments processed by Kassa
      </p>
    </main>
  );
}
