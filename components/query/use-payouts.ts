"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { withoutEmpty } from "@/components/forms/without-empty";
import type { quoteRequest } from "@/lib/schemas/dashboard";
import type { instantWithdrawalRequest, withdrawalRequest } from "@/lib/schemas/withdrawals";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type Quote = {
  source: string;
  target: string;
  principal: string;
  sent: string;
  withdrawal_fee: string;
  network_fee: string;
  total_debit: string;
  rate: string | null;
  /** What the principal is worth now in the dashboard's display currency; null without a price. */
  value_now: { amount: string; currency: string } | null;
  /** The balance of the source currency now, and whether the debit exceeds it. */
  available: string;
  is_insufficient: boolean;
  /** The withdrawal limit the payout is over, in words (it would wait for an approver); null if none. */
  over_limit: string | null;
};

export type MaxPayout = { currency: string; available: string; max_amount: string | null };

/** The largest amount whose fees still fit the balance (the form's "Max"). */
export function fetchMaxPayout(source: string, target: string): Promise<MaxPayout> {
  const query = new URLSearchParams({ currency: source, convert_to: target });
  return dashboardFetch<MaxPayout>(`/api/dashboard/quote/max?${query}`);
}
export type QuoteInput = { source: string; target: string; amountField: string; amountValue: string };

function quoteBody(input: QuoteInput): z.input<typeof quoteRequest> {
  return input.amountField === "amount_to"
    ? { currency: input.source, convert_to: input.target, amount_to: input.amountValue }
    : { currency: input.source, convert_to: input.target, amount: input.amountValue };
}

/** What a payout would send and debit, asked for once (the review step). */
export function fetchQuote(input: QuoteInput): Promise<Quote> {
  return dashboardFetch<Quote>("/api/dashboard/quote", { body: quoteBody(input) });
}

/** The live quote under the amount while the merchant types; a refused amount is shown, not retried. */
export function useQuote(input: QuoteInput, isEnabled: boolean) {
  return useQuery({
    queryKey: queryKeys.quote(input),
    enabled: isEnabled,
    queryFn: () => fetchQuote(input),
    retry: false,
  });
}

type PayoutRequest = {
  kind: "withdrawal" | "instant";
  values: z.input<typeof withdrawalRequest> | z.input<typeof instantWithdrawalRequest>;
};

/** A payout debits a balance and adds a transaction. */
export function useCreatePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, values }: PayoutRequest) =>
      dashboardFetch<{ id: number; status: "processing" | "pending" }>(
        kind === "instant" ? "/api/dashboard/withdrawals/instant" : "/api/dashboard/withdrawals",
        { body: withoutEmpty(values) },
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.balances }),
        queryClient.invalidateQueries({ queryKey: queryKeys.transactions }),
        queryClient.invalidateQueries({ queryKey: queryKeys.approvals }),
      ]),
  });
}
