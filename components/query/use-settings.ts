"use client";

import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import type { passwordRequest, totpDisableRequest, totpEnableRequest } from "@/lib/schemas/dashboard";
import { dashboardFetch } from "./dashboard-fetch";

// The settings page is drawn by the server (whether two-factor sign-in is on); nothing of it is
// cached here, so these mutations have no keys to invalidate.

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: z.input<typeof passwordRequest>) =>
      dashboardFetch("/api/dashboard/password", { body }),
  });
}

export function useStartTotpSetup() {
  return useMutation({
    mutationFn: () =>
      dashboardFetch<{ secret: string; qr_svg: string }>("/api/dashboard/totp/setup", { body: {} }),
  });
}

export function useEnableTotp() {
  return useMutation({
    mutationFn: (body: z.input<typeof totpEnableRequest>) =>
      dashboardFetch<{ recovery_codes: string[] }>("/api/dashboard/totp/enable", { body }),
  });
}

export function useDisableTotp() {
  return useMutation({
    mutationFn: (body: z.input<typeof totpDisableRequest>) =>
      dashboardFetch("/api/dashboard/totp/disable", { body }),
  });
}

export function useSaveSupportEmail() {
  return useMutation({
    mutationFn: (body: { support_email: string }) =>
      dashboardFetch<{ support_email: string | null }>("/api/dashboard/support-email", {
        method: "PUT",
        body,
      }),
  });
}

export function useSaveUnderpaymentTolerance() {
  return useMutation({
    mutationFn: (body: { tolerance_percent: string }) =>
      dashboardFetch<{ tolerance_percent: string }>("/api/dashboard/underpayment-tolerance", {
        method: "PUT",
        body,
      }),
  });
}
