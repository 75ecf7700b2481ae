"use client";

import type { BaseSyntheticEvent } from "react";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { buttonClass } from "@/components/forms/field";
import type { FileCheck } from "@/components/query/use-payout-batches";
import { HeaderRow } from "@/components/ui/header-row";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { formatDateTime } from "@/lib/format-date-time";

/** The most problems listed on the page; the rest are counted (fixing the first ones usually fixes many). */
const SHOWN_ERRORS = 200;

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/**
 * What the check found: a file that cannot be read, a file already sent, or every problem by line
 * and column and what the valid payouts take from each balance. Sending is offered only when the
 * balances cover it, and with problems only once the merchant chose to leave those lines out.
 */
export function CheckResult({
  check,
  fileName,
  sendValidRows,
  onSendValidRows,
  isSending,
  onSend,
}: {
  check: FileCheck;
  fileName: string;
  sendValidRows: boolean;
  onSendValidRows: (value: boolean) => void;
  isSending: boolean;
  onSend: (event?: BaseSyntheticEvent) => Promise<void>;
}) {
  if (check.kind === "file_error")
    return (
      <section aria-labelledby="check-heading" className="mt-4 max-w-3xl">
        <h2 id="check-heading" className="text-xl font-semibold">
          {fileName} cannot be read
        </h2>
        <p role="alert" className="mt-1 text-red-700 dark:text-red-300">
          {check.message} Nothing was sent.
        </p>
      </section>
    );
  if (check.kind === "already_sent")
    return (
      <section aria-labelledby="check-heading" className="mt-4 max-w-3xl">
        <h2 id="check-heading" className="text-xl font-semibold">
          Already sent
        </h2>
        <p role="alert" className="mt-1">
          This file was already sent as bulk payout {check.batch_id} on{" "}
          {formatDateTime(new Date(check.created_at))}. It is not sent again.{" "}
          <a href={`/dashboard/payouts/bulk/${check.batch_id}`} className="underline">
            See its payouts
          </a>
        </p>
      </section>
    );
  const problemLines = check.payouts - check.valid;
  const isShort = check.totals.some((t) => t.balance_after.startsWith("-"));
  const canSend = check.valid > 0 && !isShort && (check.errors.length === 0 || sendValidRows);
  return (
    <section aria-labelledby="check-heading" className="mt-4 max-w-4xl">
      <h2 id="check-heading" className="text-xl font-semibold">
        {check.errors.length === 0
          ? `${plural(check.payouts, "payout")} ready to send`
          : `${plural(check.errors.length, "problem")} on ${plural(problemLines, "line")} of ${plural(check.payouts, "payout")}`}
      </h2>
      {check.errors.length > 0 && (
        <>
          <p className="mt-1 text-sm">
            Lines are counted as your spreadsheet counts them: the column names are line 1. Fix these lines in
            your file and choose it again{check.valid > 0 ? ", or leave them out below" : ""}.
          </p>
          <ScrollRegion label="Problems by line" className="mt-2 max-h-96 overflow-y-auto">
            <table className="w-full text-left text-sm">
              <HeaderRow columns={["Line", "Column", "Problem"]} />
              <tbody>
                {check.errors.slice(0, SHOWN_ERRORS).map((e) => (
                  <tr
                    key={`${e.line}-${e.column}`}
                    className="border-t border-slate-200 dark:border-slate-800"
                  >
                    <td className="py-1 pr-3 font-mono">{e.line}</td>
                    <td className="break-all py-1 pr-3 font-mono">{e.column}</td>
                    <td className="py-1 pr-3">{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          {check.errors.length > SHOWN_ERRORS && (
            <p className="mt-1 text-sm">And {plural(check.errors.length - SHOWN_ERRORS, "more problem")}.</p>
          )}
          {check.valid > 0 && (
            <label className="mt-3 flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-1"
                checked={sendValidRows}
                onChange={(event) => onSendValidRows(event.target.checked)}
              />
              Leave out the {plural(problemLines, "line")} with problems and send the other{" "}
              {plural(check.valid, "payout")}
            </label>
          )}
        </>
      )}
      {check.totals.length > 0 && (
        <>
          <h3 className="mt-4 font-semibold">
            What{" "}
            {check.errors.length === 0
              ? "they take"
              : `the ${plural(check.valid, "valid payout")} ${check.valid === 1 ? "takes" : "take"}`}{" "}
            from your balances
          </h3>
          <ScrollRegion label="Totals by currency" className="mt-2">
            <table className="w-full text-left text-sm">
              <HeaderRow columns={["Balance", "Payouts", "Amount", "Fees", "Now", "After"]} />
              <tbody>
                {check.totals.map((t) => (
                  <tr key={t.currency} className="border-t border-slate-200 dark:border-slate-800">
                    <th scope="row" className="py-1 pr-3 font-medium">
                      {t.currency}
                    </th>
                    <td className="py-1 pr-3">{t.count}</td>
                    <td className="whitespace-nowrap py-1 pr-3 font-mono">
                      {dashboardAmount(t.amount, t.currency)}
                    </td>
                    <td className="whitespace-nowrap py-1 pr-3 font-mono">
                      {dashboardAmount(t.fee, t.currency)}
                    </td>
                    <td className="whitespace-nowrap py-1 pr-3 font-mono">
                      {dashboardAmount(t.balance, t.currency)}
                    </td>
                    <td className="whitespace-nowrap py-1 pr-3 font-mono">
                      {dashboardAmount(t.balance_after, t.currency)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <p className="mt-2 text-sm">
            Arrives:{" "}
            {check.sent.map((s, index) => (
              <span key={s.currency} className="font-mono">
                {index > 0 && ", "}
                {dashboardAmount(s.amount, s.currency)}
              </span>
            ))}
          </p>
        </>
      )}
      {isShort && (
        <p role="alert" className="mt-2 font-medium text-red-700 dark:text-red-300">
          Your balance does not cover these payouts with their fees: add funds, or send fewer payouts.
        </p>
      )}
      {check.approval && (
        <p className="mt-2 text-sm font-medium text-amber-900 dark:text-amber-200">
          {check.approval} The whole batch will wait for approval: another user of your account approves it
          once, on the Approvals page, before anything is sent.
        </p>
      )}
      {canSend && (
        <button type="button" onClick={onSend} disabled={isSending} className={`mt-4 ${buttonClass}`}>
          {isSending ? "Sending…" : `Send ${plural(check.valid, "payout")}`}
        </button>
      )}
    </section>
  );
}
