"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { withoutEmpty } from "@/components/forms/without-empty";
import type { dashboardInvoiceRequest } from "@/lib/schemas/invoices";
import type { TransactionRow } from "@/lib/transactions/list-transactions";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

type Page = { rows: TransactionRow[]; nextBefore: number | null };
export type CreatedInvoice = { id: number; url: string; token: string; status: string };

/** The explorer's list for one filter (a query string), paged by keyset. */
export function useTransactionPages(filterQuery: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.transactionList(filterQuery),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) =>
      dashboardFetch<Page>(
        `/api/dashboard/transactions?${filterQuery}${pageParam ? `&before=${pageParam}` : ""}`,
      ),
    getNextPageParam: (last) => last.nextBefore,
  });
}

export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: z.input<typeof dashboardInvoiceRequest>) =>
      dashboardFetch<CreatedInvoice>("/api/dashboard/invoices", { body: withoutEmpty(values) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.transactions }),
  });
}
