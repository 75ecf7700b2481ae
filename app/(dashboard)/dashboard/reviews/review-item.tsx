"use client";

import { useState } from "react";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { buttonClass, secondaryButtonClass } from "@/components/forms/field";
import { type ReviewRow, useDecideReview } from "@/components/query/use-reviews";
import type { ReviewDecision } from "@/lib/compliance/decide-review";
import { formatDateTime } from "@/lib/format-date-time";
import { DecisionForm as ConfirmDecision } from "../approvals/decision-form";

function DecisionForm({
  item,
  decision,
  onCancel,
  onDecided,
}: {
  item: ReviewRow;
  decision: ReviewDecision;
  onCancel: () => void;
  onDecided: (message: string) => void;
}) {
  const decide = useDecideReview();
  const verb = decision === "release" ? "Release" : "Reject";
  return (
    <ConfirmDecision
      label={`${verb} payment ${item.id}`}
      explanation={
        decision === "release"
          ? "It is credited to your balance at once, and your callback URL hears of it."
          : item.chain_removal === "block_removed"
            ? "A reorganisation removed it: nothing is kept, and nothing is refunded."
            : "It never reaches your balance; the operator refunds it to the sender."
      }
      submitLabel={`${verb} payment`}
      busyLabel={`${verb.replace(/e$/, "")}ing…`}
      onCancel={onCancel}
      decide={async () => {
        await decide.mutateAsync({ id: item.id, decision });
        onDecided(
          decision === "release"
            ? `Payment of ${dashboardAmount(item.amount, item.currency)} released: it is credited.`
            : item.chain_removal === "block_removed"
              ? `Payment of ${dashboardAmount(item.amount, item.currency)} rejected: its block was removed, so nothing is kept.`
              : `Payment of ${dashboardAmount(item.amount, item.currency)} rejected: it is kept for the operator to send back.`,
        );
      }}
    />
  );
}

/** One held payment: how much, from whom, why it scored as it did, and the two decisions. */
export function ReviewItem({ item, onDecided }: { item: ReviewRow; onDecided: (message: string) => void }) {
  const [decision, setDecision] = useState<ReviewDecision | null>(null);
  const isRemoved = item.chain_removal === "block_removed";
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-mono text-lg font-semibold">{dashboardAmount(item.amount, item.currency)}</p>
        <p className="text-sm">
          Risk score <strong>{item.score}</strong> · {item.type === "invoice" ? "Invoice" : "Deposit"}{" "}
          {item.transaction_id}
        </p>
      </div>
      <dl className="mt-1 grid gap-x-3 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">From</dt>
        <dd className="break-all font-mono">{item.sender_address ?? "Not named by the network"}</dd>
        <dt className="font-medium">Transaction</dt>
        <dd className="break-all font-mono">{item.txid}</dd>
        <dt className="font-medium">Held since</dt>
        <dd>{formatDateTime(item.created_at)}</dd>
      </dl>
      {item.reasons.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-sm">
          {item.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
      {isRemoved && (
        <p className="mt-1 text-sm font-medium">
          A reorganisation removed this payment's block from the chain: no coins arrived, so it cannot be
          released. Reject it to close it; nothing is kept or refunded.
        </p>
      )}
      {!decision && (
        <div className="mt-2 flex flex-wrap gap-2">
          {!isRemoved && (
            <button type="button" className={buttonClass} onClick={() => setDecision("release")}>
              Release
            </button>
          )}
          <button type="button" className={secondaryButtonClass} onClick={() => setDecision("reject")}>
            Reject
          </button>
        </div>
      )}
      {decision && (
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
