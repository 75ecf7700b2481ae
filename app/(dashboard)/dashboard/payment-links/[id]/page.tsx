import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { CopyField } from "@/components/checkout/copy-field";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { invoiceStatusLabel } from "@/components/dashboard/invoice-status";
import {
  linkAmountText,
  PAYMENT_LINK_STATUS_LABELS,
  usesText,
} from "@/components/dashboard/payment-link-text";
import { secondaryButtonClass } from "@/components/forms/control-classes";
import { HeaderRow } from "@/components/ui/header-row";
import { requestPublicOrigin } from "@/lib/api/request-public-origin";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format-date-time";
import { listPaymentLinkInvoices } from "@/lib/payment-links/list-payment-link-invoices";
import { loadPaymentLink } from "@/lib/payment-links/load-payment-link";
import { toPaymentLinkResponse } from "@/lib/payment-links/to-payment-link-response";
import { can } from "@/lib/team/permissions";
import { DeactivateButton } from "./deactivate-button";

export const metadata: Metadata = { title: "Payment link" };

const sectionClass = "rounded-md border border-slate-200 p-3 dark:border-slate-800";

const PAYER_LABELS = { natural: "People", legal: "Companies" } as const;

/** One payment link: its URL and QR code to share, its terms, uses and money received, its invoices. */
export default async function PaymentLinkPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession({ permission: "dashboard.view" });
  const raw = (await params).id;
  const id = /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : undefined;
  const db = getDb();
  const record =
    id === undefined ? undefined : await loadPaymentLink(db, { merchantId: session.merchantId, id });
  if (!record) notFound();
  const link = toPaymentLinkResponse(record, requestPublicOrigin(await headers()));
  const invoices = await listPaymentLinkInvoices(db, {
    merchantId: session.merchantId,
    linkId: record.link.id,
  });
  const terms: [string, string][] = [
    ["Amount", linkAmountText(link)],
    ["Who may pay", link.sender_types.map((type) => PAYER_LABELS[type]).join(" and ")],
    ["Uses", `${usesText(link)} (${link.paid_invoices} paid, ${link.open_invoices} being paid)`],
    ["Received", dashboardAmount(link.received, link.currency)],
    [
      "Stops taking payments",
      link.expires_at ? formatDateTime(link.expires_at) : "Never (until deactivated)",
    ],
    ["Return address after payment", link.url_success ?? "None"],
    ["Return address if the payment fails", link.url_failed ?? "None"],
    ["Created", `${formatDateTime(link.created_at)} by ${record.link.createdBy}`],
    ...(link.deactivated_at
      ? ([["Deactivated", formatDateTime(link.deactivated_at)]] as [string, string][])
      : []),
  ];
  return (
    <>
      <p className="text-sm">
        <a href="/dashboard/payment-links" className="underline">
          Payment links
        </a>
      </p>
      <h1 className="mt-1 break-words text-2xl font-bold tracking-tight">{link.title}</h1>
      <p className="mt-1" data-testid="link-status">
        {PAYMENT_LINK_STATUS_LABELS[link.status]}
      </p>
      {link.description && (
        <p className="mt-2 whitespace-pre-line break-words text-slate-700 dark:text-slate-300">
          {link.description}
        </p>
      )}
      {record.link.isActive && (
        <section aria-labelledby="share" className={`mt-4 ${sectionClass}`}>
          <h2 id="share" className="font-semibold">
            Share
          </h2>
          <div className="flex flex-wrap items-start gap-4">
            <div className="min-w-0 flex-1 basis-64">
              <CopyField label="Link" value={link.url} />
              <div className="mt-3 flex flex-wrap gap-2">
                <a href={link.url} target="_blank" rel="noreferrer" className={secondaryButtonClass}>
                  Open the page
                </a>
              </div>
            </div>
            {/* biome-ignore lint/performance/noImgElement: a server-drawn SVG */}
            <img
              src={`/api/link/${record.link.token}/qr.svg`}
              alt="QR code of the payment link"
              width={144}
              height={144}
              className="rounded-md bg-white p-1"
            />
          </div>
        </section>
      )}
      <section aria-labelledby="terms" className={`mt-4 ${sectionClass}`}>
        <h2 id="terms" className="font-semibold">
          Details
        </h2>
        <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
          {terms.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-medium text-slate-600 dark:text-slate-400">{term}</dt>
              <dd className="break-words" data-testid={`link-${term.toLowerCase().replace(/\s+/g, "-")}`}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      </section>
      {record.link.isActive && can(session.role, "invoices.manage") && (
        <div className="mt-4">
          <DeactivateButton linkId={link.id} />
        </div>
      )}
      <section aria-labelledby="link-invoices" className="mt-6">
        <h2 id="link-invoices" className="text-lg font-semibold">
          Invoices from this link
        </h2>
        {invoices.length === 0 ? (
          <p className="mt-2 text-sm">No customer has started paying yet.</p>
        ) : (
          <div className="mt-2 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <HeaderRow
                columns={[
                  "Invoice",
                  "Amount",
                  "Status",
                  { label: "Credited", from: "sm" },
                  { label: "Created (UTC)", from: "md" },
                ]}
              />
              <tbody>
                {invoices.map((invoice) => (
                  <tr key={invoice.id} className="border-t border-slate-200 dark:border-slate-800">
                    <td className="py-1 pr-3">
                      <a href={`/dashboard/invoices/${invoice.id}`} className="underline">
                        {invoice.id}
                      </a>
                    </td>
                    <td className="whitespace-nowrap py-1 pr-3 font-mono">
                      {dashboardAmount(invoice.amount, invoice.currency)}
                    </td>
                    <td className="py-1 pr-3">{invoiceStatusLabel(invoice.status, invoice.reason)}</td>
                    <td className="hidden whitespace-nowrap py-1 pr-3 font-mono sm:table-cell">
                      {dashboardAmount(invoice.creditedAmount, invoice.currency)}
                    </td>
                    <td className="hidden whitespace-nowrap py-1 pr-3 md:table-cell">
                      {formatDateTime(invoice.createdAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
