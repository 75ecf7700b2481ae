import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { CopyField } from "@/components/checkout/copy-field";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { feeLabel } from "@/components/dashboard/fee-label";
import { InvoiceBadges } from "@/components/dashboard/invoice-badges";
import { EXCEPTION_ADVICE, EXCEPTION_LABELS } from "@/components/dashboard/invoice-status";
import {
  invoiceHeadline,
  latePaymentEvents,
  timelineEventText,
} from "@/components/dashboard/invoice-timeline";
import { secondaryButtonClass } from "@/components/forms/control-classes";
import { Money } from "@/components/ui/money";
import { requestPublicOrigin } from "@/lib/api/request-public-origin";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format-date-time";
import { RESOLUTION_REASON_LABELS } from "@/lib/invoices/resolve-invoice-exception";
import { checkoutUrl } from "@/lib/invoices/to-invoice-response";
import { formatAmountShort, parseDecimal } from "@/lib/money";
import { refundableCurrencies } from "@/lib/refunds/check-refund-currencies";
import { openRefundLinks } from "@/lib/refunds/open-refund-links";
import { getSecretBox } from "@/lib/runtime";
import { can } from "@/lib/team/permissions";
import { OPEN_INVOICE_STATUSES } from "@/lib/transactions/statuses";
import { isPayoutUnderWay, refundedAmount } from "@/lib/withdrawals/list-refunds";
import { ResendButton } from "../../transactions/[id]/resend-button";
import { CancelButton } from "./cancel-button";
import { invoicePageData } from "./invoice-page-data";
import { IssueRefund } from "./issue-refund";
import { refundOwed } from "./refund-owed";
import { RefundSection } from "./refund-section";
import { ResolveSection } from "./resolve-section";

export const metadata: Metadata = { title: "Invoice" };

/** Times in UTC, labelled, so the list, this page and the API's timestamps agree. */

const sectionClass = "rounded-md border border-slate-200 p-3 dark:border-slate-800";

function customerName(data: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.legal_name === "string") return d.legal_name;
  return [d.first_name, d.last_name].filter((part) => typeof part === "string").join(" ");
}

export default async function InvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession({ permission: "dashboard.view" });
  const id = Number((await params).id);
  const data = Number.isSafeInteger(id)
    ? await invoicePageData(getDb(), {
        merchantId: session.merchantId,
        id,
      })
    : undefined;
  if (!data) notFound();
  const { record, detail, owed, owedBack, otherCoinCredits, exchanges, exceptions, refunds } = data;
  const { refundClaims, refundLeft } = data;
  const origin = requestPublicOrigin(await headers());
  const links = new Map(
    (await openRefundLinks(getDb(), { invoiceId: record.id, box: getSecretBox() })).map((l) => [
      l.id,
      l.path,
    ]),
  );
  const { resolution, openExceptions, hasLatePayment } = data;
  const { invoice } = record;
  const url = checkoutUrl(requestPublicOrigin(await headers()), invoice.token);
  const pay = invoice.senderCurrency;
  // Paid in a coin other than the pay currency (an address shown before a switch): one coin's sum no
  // longer says how short the invoice is, so each coin shows what it was worth and the shortfall is
  // given in the invoice currency too.
  const isMultiCoin = otherCoinCredits.length > 0;
  const inInvoiceCurrency = owed?.inInvoiceCurrency;
  const payExchange = exchanges.find((exchange) => exchange.currency === pay);
  /** A coin's credited worth (its exchange entry); when not all of it is credited yet, what is. */
  const worthText = (exchange: (typeof exchanges)[number], received: bigint) =>
    parseDecimal(exchange.amount) === received
      ? ` = ${dashboardAmount(exchange.amount_to ?? null, record.currency)}`
      : `; ${dashboardAmount(exchange.amount, exchange.currency)} credited = ${dashboardAmount(exchange.amount_to ?? null, record.currency)}`;
  const isOpen = (OPEN_INVOICE_STATUSES as readonly string[]).includes(record.status);
  const refund = refundOwed({
    invoiceId: record.id,
    status: record.status,
    reason: invoice.statusReason,
    invoiceCurrency: record.currency,
    payCurrency: pay,
    received: invoice.confirmedAmount,
    excess: owedBack?.overpaid ?? 0n,
    late: data.lateCredit,
    refunded: pay ? refundedAmount(refunds, pay) : 0n,
    foreignId: record.foreignId,
  });
  // A short invoice also owes back, in its own coin, what was paid to an address shown before a switch.
  const otherCoinRefunds = otherCoinCredits.flatMap((credit) => {
    const owedInCoin = refundOwed({
      invoiceId: record.id,
      status: record.status,
      reason: invoice.statusReason,
      invoiceCurrency: record.currency,
      payCurrency: credit.currency,
      received: credit.amount,
      excess: 0n,
      late: 0n,
      refunded: refundedAmount(refunds, credit.currency),
      foreignId: `${record.foreignId}-${credit.currency}`,
    });
    return owedInCoin ? [{ currency: credit.currency, refund: owedInCoin }] : [];
  });
  // Status changes, late payments, refunds and the resolution, in words and in order of time.
  const timeline = [
    ...detail.timeline.map((event, index) => ({
      key: `event-${index}`,
      at: event.at,
      text: timelineEventText(event.to, event.reason),
    })),
    ...data.latePayments.flatMap(latePaymentEvents),
    ...refunds.map((r) => ({
      key: `refund-${r.id}`,
      at: r.createdAt.toISOString(),
      text: `Refund of ${dashboardAmount(r.amount, r.currency)} issued (${r.isReturned ? "returned unsent" : r.status === "confirmed" ? "sent" : r.status})`,
    })),
    ...(resolution
      ? [
          {
            key: "resolution",
            at: resolution.resolvedAt.toISOString(),
            text: `Resolved without a refund by ${resolution.resolvedBy}: ${RESOLUTION_REASON_LABELS[resolution.reason]}`,
          },
        ]
      : []),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <>
      <p className="text-sm">
        <a href="/dashboard/invoices" className="underline">
          Invoices
        </a>{" "}
        / {record.foreignId}
      </p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight">{invoice.title}</h1>
      <p className="mt-1 flex flex-wrap items-center gap-2">
        <span>
          Invoice {record.id} · your id <span className="font-mono">{record.foreignId}</span> ·{" "}
          <strong>
            {invoiceHeadline({
              status: record.status,
              reason: invoice.statusReason,
              hasLatePayment,
              isResolved: resolution !== null,
            })}
          </strong>
        </span>
        <InvoiceBadges exceptions={exceptions} />
      </p>
      {exceptions.length > 0 && (
        <ul className="mt-2 space-y-1 text-sm">
          {exceptions.map((exception) => (
            <li key={exception}>
              <strong>{EXCEPTION_LABELS[exception]}:</strong> {EXCEPTION_ADVICE[exception]}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <section aria-labelledby="amounts" className={sectionClass}>
          <h2 id="amounts" className="font-semibold">
            Amounts
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt>Invoiced</dt>
            <dd className="font-mono">
              <Money amount={record.amount} code={record.currency} showExact />
            </dd>
            <dt>Invoiced in {pay ?? "crypto"}</dt>
            <dd className="font-mono">
              {pay
                ? dashboardAmount(invoice.senderAmount, pay)
                : "not chosen yet (the customer picks the currency)"}
            </dd>
            {pay && (
              <>
                <dt>{isMultiCoin ? `Received in ${pay}` : "Received"}</dt>
                <dd className="font-mono">
                  {dashboardAmount(invoice.paidAmount, pay)}
                  {invoice.confirmedAmount !== invoice.paidAmount &&
                    ` (${dashboardAmount(invoice.confirmedAmount, pay)} confirmed)`}
                  {isMultiCoin && payExchange && worthText(payExchange, invoice.paidAmount)}
                </dd>
              </>
            )}
            {isMultiCoin &&
              exchanges
                .filter((exchange) => exchange.currency !== pay)
                .map((exchange) => (
                  <div key={`exchange-${exchange.currency}`} className="contents">
                    <dt>Received in {exchange.currency}</dt>
                    <dd className="font-mono">
                      {dashboardAmount(exchange.amount, exchange.currency)} ={" "}
                      {dashboardAmount(exchange.amount_to ?? null, record.currency)}
                    </dd>
                  </div>
                ))}
            {owed && owed.remaining > 0n && (invoice.paidAmount > 0n || isMultiCoin) && (
              <>
                <dt>Shortfall</dt>
                <dd className="font-mono">
                  {inInvoiceCurrency && record.currency !== pay
                    ? // What is still to pay in the coin only matters while the invoice takes payments.
                      `${dashboardAmount(inInvoiceCurrency.remaining, record.currency)}${isOpen ? ` (${dashboardAmount(owed.remaining, pay)} at today's rate)` : ""}`
                    : dashboardAmount(owed.remaining, pay)}
                </dd>
              </>
            )}
            {owed && owed.overpaid > 0n && (
              <>
                <dt>Excess</dt>
                <dd className="font-mono">
                  {inInvoiceCurrency && record.currency !== pay
                    ? `${dashboardAmount(inInvoiceCurrency.overpaid, record.currency)} (${dashboardAmount(owed.overpaid, pay)} at today's rate)`
                    : dashboardAmount(owed.overpaid, pay)}
                </dd>
              </>
            )}
            {detail.transaction.fees.map((fee) => (
              <div key={`${fee.type}-${fee.currency}`} className="contents">
                <dt>{feeLabel(fee.type)}</dt>
                <dd className="font-mono">{dashboardAmount(fee.amount, fee.currency)}</dd>
              </div>
            ))}
            <dt className="font-semibold">Net credited</dt>
            <dd className="font-mono font-semibold">
              <Money amount={invoice.creditedAmount} code={record.currency} showExact />
            </dd>
          </dl>
        </section>
        <section aria-labelledby="customer" className={sectionClass}>
          <h2 id="customer" className="font-semibold">
            Customer
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt>Name</dt>
            <dd>{customerName(invoice.senderData) || "not given yet: asked on the payment page"}</dd>
            <dt>E-mail</dt>
            <dd className="break-all">
              {invoice.emailUser ?? (invoice.senderData as { email?: string } | null)?.email ?? "not given"}
            </dd>
            <dt>Reference</dt>
            <dd className="break-all font-mono">{record.endUserReference || "not given"}</dd>
            {data.paymentLink && (
              <>
                <dt>Started from</dt>
                <dd className="break-words">
                  <a href={`/dashboard/payment-links/${data.paymentLink.id}`} className="underline">
                    payment link “{data.paymentLink.title}”
                  </a>
                </dd>
              </>
            )}
            {record.address && (
              <>
                <dt>Pays to</dt>
                <dd className="break-all font-mono">
                  {record.address.address}
                  {record.address.tag ? ` (tag ${record.address.tag})` : ""}
                </dd>
              </>
            )}
          </dl>
        </section>
      </div>
      {/* A closed invoice (paid, expired, failed, cancelled, resolved) takes no payment: its link is not offered. */}
      {isOpen && resolution === null ? (
        <section aria-labelledby="link" className={`mt-4 ${sectionClass}`}>
          <h2 id="link" className="font-semibold">
            Payment link
          </h2>
          <div className="flex flex-wrap items-start gap-4">
            <div className="min-w-64 flex-1">
              <CopyField label="Payment link" value={url} />
              <div className="mt-3 flex flex-wrap gap-2">
                <a href={url} target="_blank" rel="noreferrer" className={secondaryButtonClass}>
                  Open checkout
                </a>
                <a href={`/dashboard/transactions/${record.id}`} className={secondaryButtonClass}>
                  Payments and ledger
                </a>
              </div>
            </div>
            {/* biome-ignore lint/performance/noImgElement: a server-drawn SVG */}
            <img
              src={`/api/checkout/${invoice.token}/link.svg`}
              alt="QR code of the payment link"
              width={144}
              height={144}
              className="rounded-md bg-white p-1"
            />
          </div>
        </section>
      ) : (
        <p className="mt-4 text-sm">
          This invoice is closed: it takes no more payments.{" "}
          <a href={`/dashboard/transactions/${record.id}`} className="underline">
            Payments and ledger
          </a>
        </p>
      )}
      {resolution && (
        <section aria-labelledby="resolution" className={`mt-4 ${sectionClass}`} data-testid="resolution">
          <h2 id="resolution" className="font-semibold">
            Resolved without a refund
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt>Reason</dt>
            <dd>{RESOLUTION_REASON_LABELS[resolution.reason]}</dd>
            {resolution.note && (
              <>
                <dt>Note</dt>
                <dd className="break-words">{resolution.note}</dd>
              </>
            )}
            <dt>By</dt>
            <dd className="break-all">{resolution.resolvedBy}</dd>
            <dt>When</dt>
            <dd>
              <time dateTime={resolution.resolvedAt.toISOString()}>
                {formatDateTime(resolution.resolvedAt)}
              </time>
            </dd>
          </dl>
        </section>
      )}
      {!resolution && openExceptions.length > 0 && can(session.role, "payouts.create") && (
        <ResolveSection
          invoiceId={record.id}
          openRefunds={refundClaims.filter((claim) => claim.status === "offered").length}
          isPayoutUnderWay={refundClaims.some(
            (claim) => claim.status === "claimed" && isPayoutUnderWay(claim.payout?.status ?? null),
          )}
          className={`mt-4 ${sectionClass}`}
        />
      )}
      {(refund || refunds.length > 0 || refundClaims.length > 0) && (
        <RefundSection
          refund={refund && refundLeft ? { ...refund, left: refundLeft.left } : refund}
          refunds={refunds.filter((item) => item.claimId === null)}
          currency={pay}
          issue={
            pay ? (
              <IssueRefund
                invoiceId={record.id}
                payCurrency={pay}
                isOverpaid={refundLeft?.isOverpaid ?? false}
                isOwed={(refundLeft?.left ?? 0n) > 0n}
                otherCoins={refundableCurrencies().filter((coin) => coin !== pay)}
                rows={refundClaims.map((claim) => ({
                  id: claim.id,
                  status: claim.status,
                  amount: formatAmountShort(claim.owedAmount),
                  currency: claim.payCurrency,
                  expiresAt: claim.expiresAt.toISOString(),
                  link: links.has(claim.id) ? `${origin}${links.get(claim.id)}` : null,
                  claim: claim.claim,
                  payout: claim.payout && { ...claim.payout, amount: formatAmountShort(claim.payout.amount) },
                }))}
                canIssue={can(session.role, "payouts.create")}
              />
            ) : undefined
          }
          className={`mt-4 ${sectionClass}`}
        />
      )}
      {otherCoinRefunds.map((other) => (
        <RefundSection
          key={other.currency}
          refund={other.refund}
          refunds={[]}
          currency={other.currency}
          isOtherCoin
          className={`mt-4 ${sectionClass}`}
        />
      ))}
      {/* Always mounted, so its "Invoice cancelled." outlives the refresh that closes the invoice. */}
      <div className="mt-4">
        {can(session.role, "invoices.manage") && <CancelButton invoiceId={record.id} isOpen={isOpen} />}
      </div>
      <section aria-labelledby="timeline" className={`mt-4 ${sectionClass}`}>
        <h2 id="timeline" className="font-semibold">
          Timeline
        </h2>
        <ol className="mt-2 space-y-1 text-sm">
          {/* Invoices record their creation as an event (from no status); older ones may not have it. */}
          {!detail.timeline.some((event) => event.from === null) && (
            <li>
              <time dateTime={record.createdAt.toISOString()}>{formatDateTime(record.createdAt)}</time>:
              Created
            </li>
          )}
          {timeline.map((event) => (
            <li key={event.key}>
              <time dateTime={event.at}>{formatDateTime(event.at)}</time>: {event.text}
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="callbacks" className="mt-4">
        <h2 id="callbacks" className="font-semibold">
          Callbacks
        </h2>
        {detail.callbacks.length === 0 ? (
          <p className="text-sm">No callbacks for this invoice yet (is a callback URL set?).</p>
        ) : (
          <ul className="mt-2 space-y-2 text-sm">
            {detail.callbacks.map((callback) => (
              <li key={callback.id} className="rounded-md border border-slate-200 p-2 dark:border-slate-800">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span>
                    {callback.event} · {callback.status} · {callback.attempts.length} attempts
                  </span>
                  {can(session.role, "callbacks.manage") && <ResendButton callbackId={callback.id} />}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
