"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  callbackKeyRequest,
  callbackSettingsRequest,
  callbackUrlRequest,
} from "@/lib/schemas/dashboard";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type CallbackAttempt = {
  id: number;
  at: string;
  url: string;
  http_status: number | null;
  error: string | null;
  latency_ms: number;
  /** The start of the receiver's answer; null when none came or it was not kept (non-public receiver). */
  response_excerpt: string | null;
};

export type CallbackDelivery = {
  id: number;
  transaction_id: number;
  event: string;
  /** Where it goes now (the invoice's own URL, or the saved one); null when no URL is set. */
  url: string | null;
  is_invoice_url: boolean;
  status: "queued" | "delivered" | "failed";
  attempts: number;
  last_http_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  is_due: boolean;
  waiting_for: { id: number; event: string | null } | null;
  created_at: string;
  delivered_at: string | null;
  redelivery_of: number | null;
  payload: string;
  attempt_log: CallbackAttempt[];
};

export type TestCallbackResult = {
  url: string;
  delivered: boolean;
  http_status: number | null;
  error: string | null;
  response_excerpt: string | null;
  latency_ms: number;
  body: string;
};

export function useCallbackUrl() {
  return useQuery({
    queryKey: queryKeys.callbackUrl,
    queryFn: () =>
      dashboardFetch<{ callback_url: string | null; mode: string }>("/api/dashboard/callback-url"),
  });
}

export function useSaveCallbackUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof callbackUrlRequest>) =>
      dashboardFetch<{ callback_url: string | null }>("/api/dashboard/callback-url", { method: "PUT", body }),
    // Both: the log shows where each pending callback goes now.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["callbacks"] }),
  });
}

export function useCallbackSettings() {
  return useQuery({
    queryKey: queryKeys.callbackSettings,
    queryFn: () =>
      dashboardFetch<{ is_below_minimum_callback_on: boolean }>("/api/dashboard/callback-settings"),
  });
}

export function useSaveCallbackSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof callbackSettingsRequest>) =>
      dashboardFetch<{ is_below_minimum_callback_on: boolean }>("/api/dashboard/callback-settings", {
        method: "PUT",
        body,
      }),
    // The answer is the saved setting: no second request to learn it.
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.callbackSettings, saved),
  });
}

/** The delivery log, polled: deliveries and retries happen in the background. */
export function useCallbackLog() {
  return useQuery({
    queryKey: queryKeys.callbackLog,
    queryFn: () =>
      dashboardFetch<{ callbacks: CallbackDelivery[]; pending_count: number }>("/api/dashboard/callbacks"),
    refetchInterval: 5_000,
  });
}

export function useResendCallback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => dashboardFetch(`/api/dashboard/callbacks/${id}/resend`, { body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.callbackLog }),
  });
}

/** "Retry everything pending now": every queued callback of the merchant, due at once. */
export function useRetryPendingCallbacks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      dashboardFetch<{ retried: number }>("/api/dashboard/callbacks/retry-pending", { body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.callbackLog }),
  });
}

/** A signed test callback to the saved URL; the answer is the receiver's, at once. */
export function useSendTestCallback() {
  return useMutation({
    mutationFn: () => dashboardFetch<TestCallbackResult>("/api/dashboard/callbacks/test", { body: {} }),
  });
}

export type CallbackKeySummary = { id: number; key: string; label: string };

export type CallbackKeyState = {
  chosen: (CallbackKeySummary & { is_revoked: boolean }) | null;
  /** The key that signs for it now: the chosen one, or the key a roll replaced it with. */
  signing: CallbackKeySummary | null;
  problem: "none_chosen" | "revoked" | null;
  candidates: CallbackKeySummary[];
};

/** The designated callback key and the keys an owner may choose. */
export function useCallbackKey() {
  return useQuery({
    queryKey: queryKeys.callbackKey,
    queryFn: () => dashboardFetch<CallbackKeyState>("/api/dashboard/callback-key"),
  });
}

export function useSaveCallbackKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof callbackKeyRequest>) =>
      dashboardFetch<{ callback_key: CallbackKeySummary }>("/api/dashboard/callback-key", {
        method: "PUT",
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.callbackKey }),
  });
}
