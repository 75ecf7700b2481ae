"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { callbackSettingsRequest, callbackUrlRequest } from "@/lib/schemas/dashboard";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type CallbackDelivery = {
  id: number;
  transaction_id: number;
  event: string;
  url: string;
  status: string;
  attempts: number;
  last_http_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
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
      dashboardFetch("/api/dashboard/callback-url", { method: "PUT", body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.callbackUrl }),
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
      dashboardFetch("/api/dashboard/callback-settings", { method: "PUT", body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.callbackSettings }),
  });
}

/** The delivery log, polled: deliveries and retries happen in the background. */
export function useCallbackLog() {
  return useQuery({
    queryKey: queryKeys.callbackLog,
    queryFn: () => dashboardFetch<{ callbacks: CallbackDelivery[] }>("/api/dashboard/callbacks"),
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
