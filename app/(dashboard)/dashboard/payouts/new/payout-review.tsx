import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { buttonClass, secondaryButtonClass } from "@/components/forms/field";
import type { Quote } from "@/components/query/use-payouts";

export type ReviewDestination = { address: string; tag: string; tagName: string; receiver: string };

/** What an over-limit payout means for whoever confirms it, after the limit in the quote's words. */
export function OverLimitNotice({ text }: { text: string }) {
  return (
    <p className="mt-2 text-sm font-medium text-amber-900 dark:text-amber-200">
      {text} It will wait for approval: another user of your account must approve it on the Approvals page
      before it is sent.
    </p>
  );
}

/**
 * The review step: where it goes (address, tag and receiver repeated, to check against the
 * receiver's), what leaves the balance and what arrives, before anything is sent. A debit over the
 * balance is said here and cannot be confirmed; one over a withdrawal limit is said here too, and
 * waits for an approver once confirmed.
 */
export function PayoutReview({
  review,
  destination,
  isSubmitting,
  onChange,
}: {
  review: Quote;
  destination: ReviewDestination;
  isSubmitting: boolean;
  onChange: () => void;
}) {
  return (
    <section
      aria-labelledby="review"
      className="mt-4 rounded-md border border-indigo-300 p-4 dark:border-indigo-700"
    >
      <h2 id="review" className="font-semibold">
        Confirm the payout
      </h2>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt>To address</dt>
        <dd className="break-all font-mono">{destination.address}</dd>
        {destination.tag && (
          <>
            <dt>{destination.tagName}</dt>
            <dd className="font-mono">{destination.tag}</dd>
          </>
        )}
        <dt>Receiver</dt>
        <dd>{destination.receiver}</dd>
        <dt>Sent to the address</dt>
        <dd className="font-mono">{dashboardAmount(review.sent, review.target)}</dd>
        <dt>Withdrawn</dt>
        <dd className="font-mono">{dashboardAmount(review.principal, review.source)}</dd>
        {review.value_now && review.value_now.currency !== review.source && (
          <>
            <dt>Worth about</dt>
            <dd className="font-mono">
              {dashboardAmount(review.value_now.amount, review.value_now.currency)}
            </dd>
          </>
        )}
        <dt>Withdrawal fee</dt>
        <dd className="font-mono">{dashboardAmount(review.withdrawal_fee, review.source)}</dd>
        <dt>Network fee</dt>
        <dd className="font-mono">{dashboardAmount(review.network_fee, review.source)}</dd>
        <dt className="font-semibold">Debited from your balance</dt>
        <dd className="font-mono font-semibold">{dashboardAmount(review.total_debit, review.source)}</dd>
      </dl>
      {review.is_insufficient && (
        <p className="mt-2 text-sm font-medium text-red-800 dark:text-red-300">
          Not enough funds: this debits {dashboardAmount(review.total_debit, review.source)}, your available
          balance is {dashboardAmount(review.available, review.source)}. Lower the amount (or use Max).
        </p>
      )}
      {review.over_limit && !review.is_insufficient && <OverLimitNotice text={review.over_limit} />}
      <div className="mt-3 flex gap-2">
        <button type="submit" disabled={isSubmitting || review.is_insufficient} className={buttonClass}>
          {isSubmitting ? "Sending…" : "Confirm payout"}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onChange}>
          Change something
        </button>
      </div>
    </section>
  );
}

export function PayoutAccepted({ id, status }: { id: number; status?: string }) {
  const isHeld = status === "pending";
  return (
    <section aria-labelledby="sent" className="mt-6">
      <h2 id="sent" className="text-xl font-semibold">
        {isHeld ? `Payout ${id} waits for approval` : `Payout ${id} accepted`}
      </h2>
      <p className="mt-2">
        {isHeld
          ? "It is over one of your withdrawal limits: the amount and fees are reserved, and another user of your account must approve it on the Approvals page before it is sent."
          : "The amount and fees are debited. It is being sent; its status updates in the transaction view."}
      </p>
      <a href={`/dashboard/transactions/${id}`} className={`mt-4 inline-block ${buttonClass}`}>
        Follow the payout
      </a>
    </section>
  );
}
