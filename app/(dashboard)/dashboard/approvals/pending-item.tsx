"use client";

import { useState } from "react";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { buttonClass, secondaryButtonClass } from "@/components/forms/field";
import { type PendingWithdrawal, useDecideWithdrawal } from "@/components/query/use-approvals";
import { formatDateTime } from "@/lib/format-date-time";
import { DecisionForm as ConfirmDecision } from "./decision-form";

type Decision = "approve" | "decline";

function DecisionForm({
  item,
  decision,
  onCancel,
  onDecided,
}: {
  item: PendingWithdrawal;
  decision: Decision;
  onCancel: () => void;
  onDecided: (message: string) => void;
}) {
  const decide = useDecideWithdrawal();
  const verb = decision === "approve" ? "Approve" : "Decline";
  return (
    <ConfirmDecision
      label={`${verb} withdrawal ${item.id}`}
      explanation={
        decision === "approve"
          ? `It is sent to the address at once: ${dashboardAmount(item.sent, item.target_currency)}.`
          : `${dashboardAmount(item.total_debit, item.currency)} return to your balance.`
      }
      submitLabel={`${verb} withdrawal`}
      busyLabel={`${verb.slice(0, -1)}ing…`}
      onCancel={onCancel}
      decide={async () => {
        await decide.mutateAsync({ id: item.id, decision });
        onDecided(
          decision === "approve"
            ? `Withdrawal ${item.id} approved: it is being sent.`
            : `Withdrawal ${item.id} declined: ${dashboardAmount(item.total_debit, item.currency)} are back in your balance.`,
        );
      }}
    />
  );
}

/** One withdrawal waiting for a decision, with what it sends, where, who asked, and until when. */
export function PendingItem({
  item,
  onDecided,
}: {
  item: PendingWithdrawal;
  onDecided: (message: string) => void;
}) {
  const [decision, setDecision] = useState<Decision | null>(null);
  const isConversion = item.currency !== item.target_currency;
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-lg font-semibold">
          <span className="font-mono">{dashboardAmount(item.amount, item.currency)}</span>
          {isConversion && (
            <span className="text-base font-normal">
              {" "}
              → <span className="font-mono">{dashboardAmount(item.sent, item.target_currency)}</span>
            </span>
          )}
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-300">Withdrawal {item.id}</p>
      </div>
      {item.value_now && (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Worth about{" "}
          <span className="font-mono">{dashboardAmount(item.value_now.amount, item.value_now.currency)}</span>{" "}
          at today's rate
        </p>
      )}
      <p className="mt-1 text-sm">
        To <strong>{item.receiver}</strong>
        {item.end_user_reference ? ` (customer reference ${item.end_user_reference})` : ""}
        {item.refund_of !== null && (
          <>
            {" "}
            · refund of{" "}
            <a href={`/dashboard/invoices/${item.refund_of}`} className="underline">
              invoice {item.refund_of}
            </a>
          </>
        )}
      </p>
      <p className="mt-1 break-all font-mono text-sm">
        {item.address}
        {item.tag ? ` (tag ${item.tag})` : ""}
      </p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        {item.created_by ? `Asked for by ${item.created_by}` : "Asked for through the API"} on{" "}
        {formatDateTime(item.created_at)}. {dashboardAmount(item.total_debit, item.currency)} reserved, fees
        included.
        {item.expires_at &&
          ` Declined automatically if nobody decides by ${formatDateTime(item.expires_at)}.`}
      </p>
      {!item.can_decide && (
        <p className="mt-2 text-sm font-medium">
          You asked for this withdrawal, so another user of your account must approve or decline it.
        </p>
      )}
      {item.can_decide && !decision && (
        <div className="mt-2 flex flex-wrap gap-2">
          <button type="button" className={buttonClass} onClick={() => setDecision("approve")}>
            Approve
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setDecision("decline")}>
            Decline
          </button>
        </div>
      )}
      {item.can_decide && decision && (
        <DecisionForm
          item={item}
          decision={decision}
          onCancel={() => setDecision(null)}
          onDecided={onDecided}
        />
      )}
    </li>
  );
}
