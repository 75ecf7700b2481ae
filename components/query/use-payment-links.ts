"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { withoutEmpty } from "@/components/forms/without-empty";
import type { createPaymentLinkRequest, PaymentLinkResponse } from "@/lib/schemas/payment-links";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type CreatedPaymentLink = PaymentLinkResponse & { token: string };

/** The dashboard's payment link form; a new link's invoices will show among the transactions. */
export function useCreatePaymentLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: z.input<typeof createPaymentLinkRequest>) =>
      dashboardFetch<CreatedPaymentLink>("/api/dashboard/payment-links", { body: withoutEmpty(values) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.transactions }),
  });
}

/** Deactivate: a step-up confirmed change (the dialog opens when the window is closed). */
export function useDeactivatePaymentLink(id: number) {
  return useMutation({
    mutationFn: () =>
      dashboardFetch<PaymentLinkResponse>(`/api/dashboard/payment-links/${id}/deactivate`, {
        method: "POST",
        body: {},
      }),
  });
}
