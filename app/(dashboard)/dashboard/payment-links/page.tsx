import type { Metadata } from "next";
import { headers } from "next/headers";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import {
  linkAmountText,
  PAYMENT_LINK_STATUS_LABELS,
  usesText,
} from "@/components/dashboard/payment-link-text";
import { buttonClass, secondaryButtonClass } from "@/components/forms/control-classes";
import { HeaderRow } from "@/components/ui/header-row";
import { requestPublicOrigin } from "@/lib/api/request-public-origin";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format-date-time";
import { listPaymentLinks } from "@/lib/payment-links/list-payment-links";
import { toPaymentLinkResponse } from "@/lib/payment-links/to-payment-link-response";
import { can } from "@/lib/team/permissions";

export const metadata: Metadata = { title: "Payment links" };

const PAGE_SIZE = 50;

type Search = Promise<Record<string, string | string[] | undefined>>;

/** The merchant's payment links, newest first, with their uses and what each received; 50 a page. */
export default async function PaymentLinksPage({ searchParams }: { searchParams: Search }) {
  const session = await requireSession({ permission: "dashboard.view" });
  const search = await searchParams;
  // Only a cursor this page handed out; anything else in the address starts from the newest.
  const cursor =
    typeof search.after === "string" && /^[1-9][0-9]{0,14}$/.test(search.after) ? search.after : undefined;
  const page = await listPaymentLinks(getDb(), { merchantId: session.merchantId, limit: PAGE_SIZE, cursor });
  const baseUrl = requestPublicOrigin(await headers());
  const links = page.links.map((record) => toPaymentLinkResponse(record, baseUrl));
  const mayCreate = can(session.role, "invoices.manage");
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold tracking-tight">Payment links</h1>
        {mayCreate && (
          <a href="/dashboard/payment-links/new" className={buttonClass}>
            New payment link
          </a>
        )}
      </div>
      <p className="mt-1 max-w-3xl text-sm text-slate-700 dark:text-slate-300">
        A page to share (by message, on your site or as a QR code): each customer who pays through it gets an
        invoice of their own. A use is a paid invoice or one still being paid; unpaid ones free their use when
        they expire.
      </p>
      {links.length === 0 ? (
        <p className="mt-4">
          {cursor
            ? "No older payment links."
            : mayCreate
              ? "No payment links yet: create one here or with the API's payment-links/create."
              : "No payment links yet."}
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <HeaderRow
              columns={[
                "Title",
                { label: "Amount", from: "sm" },
                "Uses",
                "Received",
                { label: "Status", from: "sm" },
                { label: "Created (UTC)", from: "md" },
              ]}
            />
            <tbody>
              {links.map((link) => (
                <tr key={link.id} className="border-t border-slate-200 align-top dark:border-slate-800">
                  <td className="py-1 pr-3">
                    <a href={`/dashboard/payment-links/${link.id}`} className="break-words underline">
                      {link.title}
                    </a>
                    {/* On a phone the amount and state go under the title. */}
                    <span className="block text-xs text-slate-600 sm:hidden dark:text-slate-400">
                      {linkAmountText(link)} · {PAYMENT_LINK_STATUS_LABELS[link.status]}
                    </span>
                  </td>
                  <td className="hidden py-1 pr-3 sm:table-cell">{linkAmountText(link)}</td>
                  <td className="whitespace-nowrap py-1 pr-3">{usesText(link)}</td>
                  <td className="whitespace-nowrap py-1 pr-3 font-mono">
                    {dashboardAmount(link.received, link.currency)}
                  </td>
                  <td className="hidden py-1 pr-3 sm:table-cell">
                    {PAYMENT_LINK_STATUS_LABELS[link.status]}
                  </td>
                  <td className="hidden whitespace-nowrap py-1 pr-3 md:table-cell">
                    {formatDateTime(new Date(link.created_at))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.nextCursor && (
        <p className="mt-4">
          <a href={`/dashboard/payment-links?after=${page.nextCursor}`} className={secondaryButtonClass}>
            Older payment links
          </a>
        </p>
      )}
    </>
  );
}
