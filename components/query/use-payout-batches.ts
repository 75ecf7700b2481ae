"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  BatchStatus,
  FileCheck,
  PayoutBatchSummary,
  PayoutBatchView,
} from "@/lib/schemas/payout-batches";
import { dashboardFetch } from "./dashboard-fetch";

export type { BatchStatus, FileCheck, PayoutBatchSummary };
/** GET /api/dashboard/payout-batches/<id>. */
export type PayoutBatch = PayoutBatchView & { can_decide: boolean };

import { queryKeys } from "./keys";

/** What the file form sends: the file's bytes as base64, the sender, and the merchant's choices. */
export type PayoutFileBody = {
  file: string;
  sender_type: string;
  sender_data: Record<string, string>;
  reference?: string;
  send_valid_rows?: boolean;
};

export function checkPayoutFile(body: PayoutFileBody): Promise<FileCheck> {
  return dashboardFetch<FileCheck>("/api/dashboard/payout-batches/check", { body });
}

/** Sending debits balances and adds transactions (and maybe an approval). */
export function useSendPayoutFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PayoutFileBody) =>
      dashboardFetch<{ id: number; is_repeat: boolean; needs_approval: boolean }>(
        "/api/dashboard/payout-batches",
        { body },
      ),
    onSuccess: () =>
      Promise.all(
        [queryKeys.balances, queryKeys.transactions, queryKeys.approvals, queryKeys.payoutBatches].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

const isMoving = (status: BatchStatus | undefined) =>
  status === "processing" || status === "awaiting_approval";

/** One bulk payout, asked again every 2 seconds while its payouts are on their way or wait for approval. */
export function usePayoutBatch(id: number) {
  return useQuery({
    queryKey: queryKeys.payoutBatch(id),
    queryFn: () => dashboardFetch<PayoutBatch>(`/api/dashboard/payout-batches/${id}`),
    refetchInterval: (query) => (isMoving(query.state.data?.status) ? 2000 : false),
  });
}

export function usePayoutBatches() {
  return useQuery({
    queryKey: queryKeys.payoutBatches,
    queryFn: () => dashboardFetch<{ batches: PayoutBatchSummary[] }>("/api/dashboard/payout-batches"),
  });
}

/** Approving or declining a whole bulk payout. */
export function useDecidePayoutBatch(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: "approve" | "decline") =>
      dashboardFetch<{ decided: number }>(`/api/dashboard/payout-batches/${id}/${decision}`, { body: {} }),
    onSuccess: () =>
      Promise.all(
        [queryKeys.balances, queryKeys.transactions, queryKeys.approvals, queryKeys.payoutBatches].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
