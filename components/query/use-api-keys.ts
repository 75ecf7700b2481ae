"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  apiKeyAllowlistRequest,
  apiKeyRequest,
  apiKeyRevokeRequest,
  apiKeyRollRequest,
} from "@/lib/schemas/dashboard";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type ApiKey = {
  id: number;
  api_key: string;
  label: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  revoked_at: string | null;
  /** CIDR ranges; empty: any address. */
  allowed_ips: string[];
  /** A rolled key's end of overlap. */
  expires_at: string | null;
  /** The key may call withdrawals and exchanges. */
  can_move_money: boolean;
  /** The e-mail of the member who created (or rolled into) it; null: the operator, or a key from before. */
  created_by: string | null;
  /** Its creator was removed from the team (the key still works). */
  is_creator_removed: boolean;
};
export type CreatedApiKey = { api_key: string; api_secret: string };
export type RolledApiKey = CreatedApiKey & { replaced_key: string; replaced_until: string };

export function useApiKeys() {
  return useQuery({
    queryKey: queryKeys.apiKeys,
    queryFn: () => dashboardFetch<{ keys: ApiKey[] }>("/api/dashboard/api-keys"),
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof apiKeyRequest>) =>
      dashboardFetch<CreatedApiKey>("/api/dashboard/api-keys", { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; body: z.input<typeof apiKeyRevokeRequest> }) =>
      dashboardFetch(`/api/dashboard/api-keys/${input.id}/revoke`, { body: input.body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });
}

export function useSetKeyAllowlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; body: z.input<typeof apiKeyAllowlistRequest> }) =>
      dashboardFetch<{ allowed_ips: string[] }>(`/api/dashboard/api-keys/${input.id}/allowlist`, {
        method: "PUT",
        body: input.body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });
}

export function useRollApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; body: z.input<typeof apiKeyRollRequest> }) =>
      dashboardFetch<RolledApiKey>(`/api/dashboard/api-keys/${input.id}/roll`, { body: input.body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });
}
