import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CheckoutClient } from "@/components/checkout/checkout-client";
import { Notice } from "@/components/checkout/notice";
import { accountKeys, invoiceSettings } from "@/lib/api/runtime-values";
import { isOnSandboxChain } from "@/lib/chain/sandbox/address-nets";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { openCheckout } from "@/lib/checkout/open-checkout";
import { CURRENCIES } from "@/lib/currencies/registry";
import { getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { loadInvoiceByToken } from "@/lib/invoices/load-invoice";
import { openRefundLinks } from "@/lib/refunds/open-refund-links";
import { getSecretBox } from "@/lib/runtime";
import { hasUnstorableText } from "@/lib/unstorable-text";

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ choice?: string | string[]; details?: string | string[] }>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { token } = await params;
  const record = hasUnstorableText(token) ? undefined : await loadInvoiceByToken(getDb(), token);
  return {
    title: record ? `Pay ${record.merchantName}: ${record.invoice.title}` : "Payment link not found",
    robots: { index: false, follow: false },
  };
}

/**
 * The hosted checkout. Rendered on the server with everything the customer needs (the amount, the
 * address, the state of the payment) before any JavaScript runs; the client part keeps it live.
 */
export default async function PayPage({ params, searchParams }: Props) {
  const { token } = await params;
  const { choice, details } = await searchParams;
  if (hasUnstorableText(token)) notFound(); // NUL: a token no invoice has, and text PostgreSQL refuses
  const db = getDb();
  const settings = invoiceSettings();
  let record: Awaited<ReturnType<typeof openCheckout>>;
  try {
    record = await openCheckout(db, { token, settings, keys: await accountKeys(db) });
  } catch (error) {
    if (error instanceof KassaError && error.code === "not_found") notFound();
    throw error;
  }
  const view = await checkoutView(db, record, settings);
  const [refund] = await openRefundLinks(db, { invoiceId: record.id, box: getSecretBox() });
  return (
    <main id="main" className="mx-auto w-full max-w-md px-4 py-6 sm:py-10">
      <p className="text-sm font-medium text-slate-600 dark:text-slate-400">{view.merchant_name}</p>
      <h1 className="mt-1 break-words text-2xl font-bold tracking-tight">{view.title}</h1>
      {view.description && (
        <p className="mt-2 whitespace-pre-line break-words text-slate-700 dark:text-slate-300">
          {view.description}
        </p>
      )}
      {refund && (
        <Notice tone="info" title={`${view.merchant_name} has a refund ready for you`}>
          <p>
            <a href={refund.path} className="font-medium underline">
              Claim your refund
            </a>
            : choose the coin and the address to receive it.
          </p>
        </Notice>
      )}
      <CheckoutClient
        initial={view}
        choiceError={
          choice === "refused" ? "That currency could not be chosen just now. Please choose again." : null
        }
        detailsError={
          details === "refused"
            ? "Those details could not be saved. Please check each field (a date of birth as YYYY-MM-DD) and try again."
            : null
        }
        sandboxCurrencies={CURRENCIES.filter((c) => isOnSandboxChain(c.code)).map((c) => c.code)}
      />
      {view.support_email && (
        <p className="mt-10 text-center text-sm" data-testid="support-contact">
          Questions about this payment? Write to {view.merchant_name} at{" "}
          <a
            href={`mailto:${view.support_email}`}
            className="break-all font-medium text-indigo-700 underline hover:text-indigo-900 dark:text-indigo-300"
          >
            {view.support_email}
          </a>
          .
        </p>
      )}
      <p
        className={`${view.support_email ? "mt-4" : "mt-10"} text-center text-xs text-slate-500 dark:text-slate-400`}
      >
        Invoice {record.id} · payments processed by Kassa
        {view.type === "good_until_expired" ? " · partial payments accepted" : ""}
      </p>
    </main>
  );
}
