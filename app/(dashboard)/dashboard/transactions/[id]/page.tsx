import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { feeLabel } from "@/components/dashboard/fee-label";
import { transactionStatus } from "@/components/dashboard/transaction-status";
import { Shown } from "@/components/ui/money";
import { SandboxBadge } from "@/components/ui/sandbox-badge";
import { requireSession } from "@/lib/auth/session";
import { isOnSandboxChain } from "@/lib/chain/sandbox/address-nets";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format-date-time";
import { formatRateValue } from "@/lib/format-money";
import { can } from "@/lib/team/permissions";
import { kindLabel } from "@/lib/transactions/kinds";
import { statusLabel } from "@/lib/transactions/status-label";
import { transactionDetail } from "@/lib/transactions/transaction-detail";
import { findRefundOf } from "@/lib/withdrawals/list-refunds";
import { ResendButton } from "./resend-button";

export const metadata: Metadata = { title: "Transaction" };

/** A payment's rates as transactions/info gives them in `additional_details.payments`. */
type PaymentRate = {
  txid: string;
  amount: string;
  locked_amount: string;
  locked_rate: string | null;
  rate: string | null;
};

function paymentRates(details: Record<string, unknown> | undefined): Map<string, PaymentRate> {
  const payments = Array.isArray(details?.payments) ? (details.payments as PaymentRate[]) : [];
  return new Map(payments.map((p) => [p.txid, p]));
}

/** "0.5 BTC at the locked rate of 59884 EUR per BTC; 0.5 BTC at 44913 EUR per BTC (rate when seen)". */
function describeRates(payment: PaymentRate, payCurrency: string, creditCurrency: string | null): string {
  if (!creditCurrency || creditCurrency === payCurrency) return "";
  const per = `${creditCurrency} per ${payCurrency}`;
  const parts: string[] = [];
  const locked = payment.locked_amount !== "0.00000000" && payment.locked_rate !== null;
  if (locked) {
    parts.push(
      `${dashboardAmount(payment.locked_amount, payCurrency)} at the invoice's locked rate of ${formatRateValue(payment.locked_rate!).text} ${per}`,
    );
  }
  if (payment.rate && payment.locked_amount !== payment.amount) {
    parts.push(
      `${locked ? "the rest" : "all of it"} at the rate when the payment was seen, ${formatRateValue(payment.rate).text} ${per}`,
    );
  }
  return parts.join("; ");
}

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession({ permission: "dashboard.view" });
  const id = Number((await params).id);
  const detail = Number.isSafeInteger(id)
    ? await transactionDetail(getDb(), session.merchantId, id)
    : undefined;
  if (!detail) notFound();
  const { transaction: t, status, timeline, callbacks } = detail;
  const rates = paymentRates(t.additional_details);
  const creditCurrency =
    (t.additional_details?.currency as string | undefined) ??
    t.crypto_address?.convert_to ??
    t.currency_received?.currency ??
    null;
  // The exact rate a withdrawal's conversion or an exchange used (additional_details.rate).
  const withdrawalRate = t.additional_details?.rate as string | null | undefined;
  const refundOf = t.type.startsWith("withdrawal")
    ? await findRefundOf(getDb(), { merchantId: session.merchantId, withdrawalId: t.id })
    : null;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">
        {kindLabel(t.type)} {t.id} · {transactionStatus(t.type, status)}
      </h1>
      <p className="mt-1">
        {/* The API's own word, for whoever matches it against their system. */}
        API status <span className="font-mono">{t.status}</span>
        {t.additional_details?.status === "below_minimum" &&
          ` (the minimum is ${String(t.additional_details.minimum_amount)} ${t.currency_sent?.currency ?? ""})`}
        {t.error ? ` · ${t.error}` : ""}
        {t.foreign_id !== undefined && (
          <>
            {" "}
            · your id <span className="font-mono">{JSON.stringify(t.foreign_id)}</span>
          </>
        )}
      </p>
      {refundOf !== null && (
        <p className="mt-1">
          Refund of{" "}
          <a href={`/dashboard/invoices/${refundOf}`} className="underline">
            invoice {refundOf}
          </a>
        </p>
      )}
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <section
          aria-labelledby="amounts"
          className="rounded-md border border-slate-200 p-3 dark:border-slate-800"
        >
          <h2 id="amounts" className="font-semibold">
            Amounts and fees
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {t.currency_sent && (
              <>
                {/* An invoice's currency_sent is the amount asked (as the public API reports it). */}
                <dt>{t.type === "invoice" ? "Asked" : "Sent"}</dt>
                <dd className="font-mono">
                  {dashboardAmount(t.currency_sent.amount, t.currency_sent.currency)}
                </dd>
              </>
            )}
            {t.currency_sent?.remaining_amount && (
              <>
                <dt>Still owed</dt>
                <dd className="font-mono">
                  {dashboardAmount(t.currency_sent.remaining_amount, t.currency_sent.currency)}
                </dd>
              </>
            )}
            {t.currency_received && (
              <>
                <dt>Received</dt>
                <dd className="font-mono">
                  {dashboardAmount(t.currency_received.amount, t.currency_received.currency)}
                </dd>
              </>
            )}
            {t.fees.map((fee) => (
              <div key={`${fee.type}-${fee.currency}`} className="contents">
                <dt>{feeLabel(fee.type)}</dt>
                <dd className="font-mono">{dashboardAmount(fee.amount, fee.currency)}</dd>
              </div>
            ))}
            {t.crypto_address && (
              <>
                <dt>Address</dt>
                <dd className="break-all font-mono">
                  {t.crypto_address.address}
                  {t.crypto_address.tag ? ` (tag ${t.crypto_address.tag})` : ""}
                  {isOnSandboxChain(t.crypto_address.currency) && <SandboxBadge />}
                </dd>
              </>
            )}
          </dl>
        </section>
        <section
          aria-labelledby="timeline"
          className="rounded-md border border-slate-200 p-3 dark:border-slate-800"
        >
          <h2 id="timeline" className="font-semibold">
            Status history
          </h2>
          <ol className="mt-2 space-y-1 text-sm">
            {timeline.map((event) => (
              <li key={event.at + event.to}>
                <time dateTime={event.at}>{formatDateTime(event.at)}</time>: {statusLabel(event.to)}
                {event.reason ? ` (${event.reason})` : ""}
              </li>
            ))}
          </ol>
        </section>
      </div>
      <section aria-labelledby="parts" className="mt-4">
        <h2 id="parts" className="font-semibold">
          Sub-transactions
        </h2>
        {t.transactions.length === 0 ? (
          <p className="text-sm">None yet.</p>
        ) : (
          <ul className="mt-2 space-y-2 text-sm">
            {t.transactions.map((part) => (
              <li
                key={`${part.transaction_type}-${part.id}`}
                className="rounded-md border border-slate-200 p-2 dark:border-slate-800"
              >
                <strong>{part.transaction_type}</strong> {part.type}:{" "}
                {dashboardAmount(part.amount, part.currency)}
                {part.amount_to && ` → ${dashboardAmount(part.amount_to, part.currency_to ?? null)}`}
                {part.txid && <span className="block break-all font-mono text-xs">txid {part.txid}</span>}
                {part.txid && rates.has(part.txid) && part.type === "deposit" && (
                  <span className="block text-xs">
                    {describeRates(rates.get(part.txid)!, part.currency, creditCurrency)}
                  </span>
                )}
                {part.transaction_type === "exchange" &&
                  (t.type.startsWith("withdrawal") || t.type === "exchange") &&
                  withdrawalRate && (
                    <span className="block text-xs">
                      rate <Shown money={formatRateValue(withdrawalRate)} /> {part.currency_to} per{" "}
                      {part.currency}
                    </span>
                  )}
                {part.confirmations !== undefined && (
                  <span className="block text-xs">{part.confirmations} confirmations</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="callbacks" className="mt-4">
        <h2 id="callbacks" className="font-semibold">
          Callbacks
        </h2>
        {callbacks.length === 0 ? (
          <p className="text-sm">No callbacks for this transaction (is a callback URL set?).</p>
        ) : (
          <ul className="mt-2 space-y-2 text-sm">
            {callbacks.map((callback) => (
              <li key={callback.id} className="rounded-md border border-slate-200 p-2 dark:border-slate-800">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span>
                    {callback.event} · {callback.status}
                    {callback.redelivery_of ? ` · resend of ${callback.redelivery_of}` : ""}
                  </span>
                  {can(session.role, "callbacks.manage") && <ResendButton callbackId={callback.id} />}
                </div>
                <ul className="mt-1 text-xs">
                  {callback.attempts.map((attempt) => (
                    <li key={attempt.at}>
                      {formatDateTime(attempt.at)}: {attempt.http_status ?? "no answer"}
                      {attempt.error ? ` · ${attempt.error}` : " · delivered"} · {attempt.latency_ms} ms
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
