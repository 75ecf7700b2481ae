"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { withdrawalLimitsRequest } from "@/lib/schemas/withdrawals";
import type { PendingWithdrawal } from "@/lib/withdrawals/list-pending-withdrawals";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type { PendingWithdrawal };
export type WithdrawalLimits = { currency: string; per_withdrawal: string; per_day: string | null };

/** The withdrawals waiting for a decision; refreshed every 15 s, so one decided elsewhere leaves the list. */
export function usePendingWithdrawals() {
  return useQuery({
    queryKey: queryKeys.approvals,
    queryFn: () => dashboardFetch<{ data: PendingWithdrawal[] }>("/api/dashboard/withdrawals/pending"),
    refetchInterval: 15_000,
  });
}

/** Approve or decline: either changes the queue, the balances (a decline returns funds) and the transactions. */
export function useDecideWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; decision: "approve" | "decline" }) =>
      dashboardFetch<{ id: number; status: string }>(
        `/api/dashboard/withdrawals/${input.id}/${input.decision}`,
        { body: {} },
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.approvals }),
        queryClient.invalidateQueries({ queryKey: queryKeys.balances }),
        queryClient.invalidateQueries({ queryKey: queryKeys.transactions }),
      ]),
  });
}

export function useWithdrawalLimits() {
  return useQuery({
    queryKey: queryKeys.withdrawalLimits,
    queryFn: () => dashboardFetch<{ data: WithdrawalLimits[] }>("/api/dashboard/withdrawals/limits"),
  });
}

export function useSaveWithdrawalLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: z.input<typeof withdrawalLimitsRequest>) =>
      dashboardFetch<WithdrawalLimits>("/api/dashboard/withdrawals/limits", { body: values }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.withdrawalLimits }),
  });
}

export function useRemoveWithdrawalLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { currency: string }) =>
      dashboardFetch<{ removed: boolean }>("/api/dashboard/withdrawals/limits/remove", { body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.withdrawalLimits }),
  });
}
