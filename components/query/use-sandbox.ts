"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type OutboxEmail = {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  status: string;
  created_at: string;
};

/** E-mails sent to customers, polled: they go out from background jobs. */
export function useOutbox() {
  return useQuery({
    queryKey: queryKeys.outbox,
    queryFn: () => dashboardFetch<{ emails: OutboxEmail[] }>("/api/dashboard/sandbox/outbox"),
    refetchInterval: 5_000,
  });
}

/**
 * What each sandbox action changes: a payment or a block moves invoices and payouts along (and may
 * send e-mails), a credit changes a balance, a rate changes every quote.
 */
const CHANGES = {
  payments: [queryKeys.transactions, queryKeys.balances, queryKeys.outbox],
  blocks: [queryKeys.transactions, queryKeys.balances, queryKeys.outbox],
  credit: [queryKeys.balances],
  rates: [queryKeys.quotes],
} as const;
export type SandboxAction = keyof typeof CHANGES;

export function useSandboxAction<Result>(action: SandboxAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: unknown) => dashboardFetch<Result>(`/api/dashboard/sandbox/${action}`, { body }),
    onSuccess: () =>
      Promise.all(CHANGES[action].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export type InvoiceAction = "pay_exact" | "pay_under" | "pay_over" | "expire";
export type InvoiceActionResult = {
  action: InvoiceAction;
  txid?: string;
  currency?: string;
  amount?: string;
  blocks?: number;
};
export type InvoiceState = { id: number; status: string; reason: string | null; label: string };

/** The sandbox panel's one-click action on an invoice; it moves invoices, balances and e-mails along. */
export function useInvoiceAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: InvoiceAction }) =>
      dashboardFetch<InvoiceActionResult>(`/api/dashboard/sandbox/invoices/${id}`, { body: { action } }),
    onSettled: () =>
      Promise.all(CHANGES.payments.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** An invoice's status as the sandbox panel follows it after an action. */
export function fetchInvoiceState(id: number): Promise<InvoiceState> {
  return dashboardFetch<InvoiceState>(`/api/dashboard/sandbox/invoices/${id}`);
}
