"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DecidedReview, ReviewDecision } from "@/lib/compliance/decide-review";
import type { ReviewRow } from "@/lib/compliance/list-reviews";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type { ReviewRow };

/** The payments held for review, or the recent decisions; refreshed every 15 s, so one decided elsewhere leaves the queue. */
export function useReviews(status: "held" | "decided") {
  return useQuery({
    queryKey: [...queryKeys.reviews, status],
    queryFn: () => dashboardFetch<{ data: ReviewRow[] }>(`/api/dashboard/reviews?status=${status}`),
    refetchInterval: 15_000,
  });
}

/** Release or reject: either changes the queue, the decisions, and (a release) balances and transactions. */
export function useDecideReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; decision: ReviewDecision }) =>
      dashboardFetch<DecidedReview>(`/api/dashboard/reviews/${input.id}/${input.decision}`, { body: {} }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.reviews }),
        queryClient.invalidateQueries({ queryKey: queryKeys.balances }),
        queryClient.invalidateQueries({ queryKey: queryKeys.transactions }),
      ]),
  });
}

export function useSaveReviewThreshold() {
  return useMutation({
    mutationFn: (input: { threshold: string }) =>
      dashboardFetch<{ review_threshold: string }>("/api/dashboard/reviews/threshold", { body: input }),
  });
}
