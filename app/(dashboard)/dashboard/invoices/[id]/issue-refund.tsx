"use client";

import { useEffect, useId, useRef, useState } from "react";
import { CopyField } from "@/components/checkout/copy-field";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { buttonClass, secondaryButtonClass } from "@/components/forms/control-classes";
import {
  useBoxesTickedBeforeHydration,
  useChoiceMadeBeforeHydration,
} from "@/components/forms/use-choice-made-before-hydration";
import { DashboardRequestError, dashboardFetch } from "@/components/query/dashboard-fetch";
import { useRefreshWith } from "@/components/query/use-refresh-with";

type Preview = {
  currency: string;
  owed: string;
  left: string;
  amount: string;
  options: {
    currency: string;
    receives: string;
    network_fee: string;
    minimum: string;
    is_under_minimum: boolean;
    debit: string | null;
    is_insufficient: boolean;
  }[];
  is_under_minimum: boolean;
  alternatives: { larger_amount: string; other_currencies: string[] } | null;
  balance: { currency: string; available: string } | null;
};

/** A refund offered to the customer, as the invoice page lists it. */
export type RefundRow = {
  id: number;
  status: string;
  amount: string;
  currency: string;
  expiresAt: string;
  /** The claim link, while it is open (re-derived, never stored). */
  link: string | null;
  claim: { currency: string; address: string; tag: string | null } | null;
  payout: { id: number; status: string; amount: string; currency: string; txid: string | null } | null;
};

const PAYOUT_STATUS: Record<string, string> = {
  pending: "waiting for approval",
  processing: "being sent",
  sending: "sent, waiting for confirmations",
  confirmed: "sent and confirmed",
  error: "failed, funds returned",
  rejected: "rejected, funds returned",
  declined: "declined, funds returned",
};

/**
 * "Issue refund": the merchant sets the terms, sees what the customer would receive per coin (and
 * whether it is under the network's minimum, with what would work instead), and issues it as a
 * confirmed action. The customer is e-mailed a link to claim it; the link is shown here once.
 * Below, the refunds offered so far, with Cancel while unclaimed.
 */
export function IssueRefund({
  invoiceId,
  payCurrency,
  isOverpaid,
  isOwed,
  otherCoins,
  rows,
  canIssue,
}: {
  invoiceId: number;
  payCurrency: string;
  isOverpaid: boolean;
  isOwed: boolean;
  otherCoins: string[];
  rows: RefundRow[];
  canIssue: boolean;
}) {
  const { isRefreshing, refreshWith } = useRefreshWith();
  const id = useId();
  const [kind, setKind] = useState<"full" | "excess" | "custom">("full");
  const [custom, setCustom] = useState("");
  const [rate, setRate] = useState<"payment" | "now">("payment");
  const [fee, setFee] = useState<"merchant" | "customer">("merchant");
  const [coins, setCoins] = useState<string[]>([]);
  // Choices made on the server-rendered page before its script ran (a slow phone) are the terms issued.
  const amountGroup = useRef<HTMLDivElement>(null);
  const feeGroup = useRef<HTMLDivElement>(null);
  const coinGroup = useRef<HTMLDivElement>(null);
  useChoiceMadeBeforeHydration(
    amountGroup,
    isOverpaid ? (["full", "excess", "custom"] as const) : (["full", "custom"] as const),
    setKind,
  );
  useChoiceMadeBeforeHydration(feeGroup, ["merchant", "customer"] as const, setFee);
  useBoxesTickedBeforeHydration(coinGroup, otherCoins, setCoins);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [problem, setProblem] = useState("");
  const [isIssuing, setIssuing] = useState(false);
  const [link, setLink] = useState("");
  const [message, setMessage] = useState("");

  const terms = {
    amount: kind,
    ...(kind === "custom" && custom.trim() ? { custom_amount: custom.trim() } : {}),
    rate,
    network_fee: fee,
    currencies: coins,
  };
  const termsKey = JSON.stringify(terms);
  // biome-ignore lint/correctness/useExhaustiveDependencies: termsKey stands for the terms
  useEffect(() => {
    if (!canIssue || !isOwed || (kind === "custom" && !custom.trim())) {
      setPreview(null);
      return;
    }
    let isCurrent = true;
    const timer = setTimeout(async () => {
      try {
        const answer = await dashboardFetch<Preview>(`/api/dashboard/invoices/${invoiceId}/refunds/preview`, {
          body: terms,
        });
        if (isCurrent) {
          setPreview(answer);
          setProblem("");
        }
      } catch (error) {
        if (!isCurrent) return;
        setPreview(null);
        setProblem(
          error instanceof DashboardRequestError
            ? (Object.values(error.fields)[0] ?? error.message)
            : "The preview is not available; try again.",
        );
      }
    }, 250);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [termsKey, invoiceId, canIssue, isOwed]);

  async function issue() {
    setIssuing(true);
    setMessage("");
    try {
      const answer = await dashboardFetch<{ link: string }>(`/api/dashboard/invoices/${invoiceId}/refunds`, {
        body: terms,
      });
      refreshWith(() => {
        setLink(answer.link);
        setMessage("Refund issued. The customer was e-mailed the link to claim it.");
      });
    } catch (error) {
      setMessage(
        error instanceof DashboardRequestError
          ? (Object.values(error.fields)[0] ?? error.message)
          : "Could not issue it; try again.",
      );
    } finally {
      setIssuing(false);
    }
  }

  async function cancel(refundId: number) {
    setMessage("");
    try {
      await dashboardFetch(`/api/dashboard/refunds/${refundId}/cancel`, { body: {} });
      refreshWith(() => setMessage("Refund cancelled: its link no longer works."));
    } catch (error) {
      setMessage(error instanceof DashboardRequestError ? error.message : "Could not cancel it; try again.");
    }
  }

  const radio = (name: string, value: string, checked: boolean, onChange: () => void, label: string) => (
    <label className="mr-4 inline-flex items-center gap-2">
      <input type="radio" name={`${id}-${name}`} value={value} checked={checked} onChange={onChange} />
      {label}
    </label>
  );

  return (
    <div className="mt-3">
      {rows.length > 0 && (
        <ul className="space-y-2 text-sm">
          {rows.map((row) => (
            <li key={row.id} className="rounded-md border border-slate-200 p-2 dark:border-slate-700">
              Refund {row.id}:{" "}
              <span className="font-mono">
                {row.amount} {row.currency}
              </span>
              ,{" "}
              {row.status === "offered"
                ? `offered, waiting for the customer to claim it (link works until ${row.expiresAt.slice(0, 16).replace("T", " ")} UTC)`
                : row.status === "claimed" && row.payout
                  ? `claimed in ${row.payout.currency}: payout ${row.payout.id} of ${row.payout.amount} ${row.payout.currency}, ${PAYOUT_STATUS[row.payout.status] ?? row.payout.status}`
                  : row.status}
              {row.payout && (
                <>
                  {" "}
                  <a href={`/dashboard/transactions/${row.payout.id}`} className="underline">
                    Payout {row.payout.id}
                  </a>
                </>
              )}
              {row.payout?.txid && (
                <span className="block break-all font-mono text-xs">txid {row.payout.txid}</span>
              )}
              {row.link && <CopyField label={`Link of refund ${row.id}`} value={row.link} />}
              {row.status === "offered" && canIssue && (
                <button
                  type="button"
                  className={`ml-2 ${secondaryButtonClass}`}
                  onClick={() => cancel(row.id)}
                >
                  Cancel refund {row.id}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {link && rows.every((row) => row.link !== link) && <CopyField label="Refund link" value={link} />}
      {isOwed && canIssue && (
        <fieldset className="mt-3 space-y-3 text-sm">
          <legend className="font-medium">Issue refund</legend>
          <div role="radiogroup" aria-label="Amount" ref={amountGroup}>
            <span className="mr-3 font-medium">Amount:</span>
            {radio("amount", "full", kind === "full", () => setKind("full"), "Everything owed")}
            {isOverpaid &&
              radio("amount", "excess", kind === "excess", () => setKind("excess"), "The excess")}
            {radio("amount", "custom", kind === "custom", () => setKind("custom"), "Another amount")}
          </div>
          {kind === "custom" && (
            <label className="block">
              Amount in {payCurrency}
              <input
                inputMode="decimal"
                value={custom}
                onChange={(event) => setCustom(event.target.value)}
                className="mt-1 block w-48 rounded-md border border-slate-300 px-3 py-2 font-mono dark:border-slate-600 dark:bg-slate-900"
              />
            </label>
          )}
          <div role="radiogroup" aria-label="Network fee" ref={feeGroup}>
            <span className="mr-3 font-medium">Network fee:</span>
            {radio("fee", "merchant", fee === "merchant", () => setFee("merchant"), "We pay it")}
            {radio("fee", "customer", fee === "customer", () => setFee("customer"), "Taken from the refund")}
          </div>
          {otherCoins.length > 0 && (
            <div ref={coinGroup}>
              <span className="font-medium">The customer may also choose:</span>{" "}
              {otherCoins.map((coin) => (
                <label key={coin} className="mr-3 inline-flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={coins.includes(coin)}
                    onChange={(event) =>
                      setCoins(event.target.checked ? [...coins, coin] : coins.filter((c) => c !== coin))
                    }
                  />
                  {coin}
                </label>
              ))}
            </div>
          )}
          {coins.length > 0 && (
            <div role="radiogroup" aria-label="Value of a refund in another coin">
              <span className="mr-3 font-medium">Another coin is worth:</span>
              {radio(
                "rate",
                "payment",
                rate === "payment",
                () => setRate("payment"),
                "what the payment was worth",
              )}
              {radio(
                "rate",
                "now",
                rate === "now",
                () => setRate("now"),
                `what the ${payCurrency} is worth now`,
              )}
            </div>
          )}
          <div aria-live="polite">
            {problem && <p className="text-red-700 dark:text-red-400">{problem}</p>}
            {preview && (
              <div>
                <p>
                  Owed back:{" "}
                  <span className="font-mono">
                    {preview.owed} {preview.currency}
                  </span>
                  ; this refund settles{" "}
                  <span className="font-mono">
                    {preview.amount} {preview.currency}
                  </span>
                  . The customer would receive:
                </p>
                <ul className="ml-5 list-disc">
                  {preview.options.map((option) => (
                    <li key={option.currency}>
                      <span className="font-mono">
                        {option.receives} {option.currency}
                      </span>
                      {option.is_under_minimum
                        ? `: under the ${option.currency} network's minimum of ${option.minimum} ${option.currency}, so it cannot be sent`
                        : option.debit && preview.balance
                          ? `, taking about ${dashboardAmount(option.debit, preview.balance.currency)} from your balance at today's rate`
                          : ""}
                    </li>
                  ))}
                </ul>
                {preview.balance && preview.options.some((option) => option.is_insufficient) && (
                  <p className="mt-1 rounded-md border border-amber-400 p-2">
                    Your {preview.balance.currency} balance (
                    {dashboardAmount(preview.balance.available, preview.balance.currency)} available) does not
                    cover this refund
                    {preview.options.every((option) => option.is_insufficient || option.is_under_minimum)
                      ? ""
                      : ` in ${preview.options
                          .filter((option) => option.is_insufficient)
                          .map((option) => option.currency)
                          .join(", ")}`}
                    : the customer&apos;s claim would be refused until it does. Add funds before they claim,
                    or refund less.
                  </p>
                )}
                {preview.alternatives && (
                  <p className="mt-1 rounded-md border border-amber-400 p-2">
                    {preview.amount} {preview.currency} is under the network&apos;s minimum. Instead: refund{" "}
                    <button
                      type="button"
                      className="underline"
                      onClick={() => {
                        setKind("custom");
                        setCustom(preview.alternatives!.larger_amount);
                      }}
                    >
                      {preview.alternatives.larger_amount} {preview.currency}
                    </button>
                    {preview.alternatives.other_currencies.length > 0
                      ? `, let the customer choose another coin (${preview.alternatives.other_currencies.join(", ")})`
                      : ""}
                    , or close the invoice without a refund (mark it resolved).
                  </p>
                )}
              </div>
            )}
          </div>
          <button
            type="button"
            className={buttonClass}
            disabled={isIssuing || isRefreshing || !preview || preview.is_under_minimum}
            onClick={issue}
          >
            {isIssuing || isRefreshing ? "Issuing…" : "Issue refund"}
          </button>
        </fieldset>
      )}
      <p role="status" className="mt-2 text-sm">
        {message}
      </p>
    </div>
  );
}
