"use client";

import { useState } from "react";
import { useReviews } from "@/components/query/use-reviews";
import { DecidedList } from "./decided-list";
import { ReviewItem } from "./review-item";

export function ReviewsClient({ threshold }: { threshold: string }) {
  const held = useReviews("held");
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Reviews</h1>
      <p className="mt-1 max-w-2xl text-sm">
        Incoming payments are screened when they confirm. One with a risk score of {threshold} or more (your
        review threshold, set in Settings) waits here instead of reaching your balance. Release it to credit
        it, or reject it: a rejected payment is kept apart for the operator to send back to its sender.
      </p>
      <p className="mt-2 text-sm font-medium" aria-live="polite">
        {notice}
      </p>
      <h2 className="mt-6 text-xl font-semibold">Waiting for a decision</h2>
      {held.isPending && <p aria-live="polite">Loading payments…</p>}
      {held.isError && <p role="alert">The list could not be loaded. It is retried in a moment.</p>}
      {held.data && held.data.data.length === 0 && (
        <p className="mt-2 text-sm">No payment waits for review.</p>
      )}
      {held.data && held.data.data.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {held.data.data.map((item) => (
            <ReviewItem key={item.id} item={item} onDecided={setNotice} />
          ))}
        </ul>
      )}
      <DecidedList />
    </>
  );
}
