"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

/** POST /api/dashboard/payout-batches/check: the file read and checked, nothing sent. */
export type FileCheck =
  | { kind: "file_error"; message: string }
  | { kind: "already_sent"; batch_id: number; reference: string; created_at: string }
  | {
      kind: "checked";
      reference: string;
      payouts: number;
      valid: number;
      errors: { line: number; column: string; message: string }[];
      totals: {
        currency: string;
        count: number;
        amount: string;
        fee: string;
        total_debit: string;
        balance: string;
        balance_after: string;
      }[];
      sent: { currency: string; amount: string }[];
      approval: string | null;
    };

export type BatchStatus = "awaiting_approval" | "declined" | "processing" | "completed";

/** GET /api/dashboard/payout-batches/<id>. */
export type PayoutBatch = {
  id: number;
  reference: string;
  status: BatchStatus;
  created_at: number;
  totals: { currency: string; amount: string; fee: string; total_debit: string }[];
  payouts: {
    row: number;
    id: number;
    foreign_id: unknown;
    type: string;
    status: string;
    internal_status: string;
    amount: string;
    fee: string;
    sender_currency: string;
    receiver_currency: string;
    receiver_amount: string;
    address: string;
    tag: string | null;
    txid: string | null;
    error: string | null;
  }[];
  can_decide: boolean;
};

export type PayoutBatchSummary = {
  id: number;
  reference: string;
  created_at: string;
  status: BatchStatus;
  payouts: number;
  by_status: Record<string, number>;
  totals: { currency: string; total_debit: string }[];
  created_by: string | null;
  can_decide: boolean;
  approval_expires_at: string | null;
};

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
