"use client";

import { useQuery } from "@tanstack/react-query";
import { dashboardFetch } from "./dashboard-fetch";
import { queryKeys } from "./keys";

export type Balances = { balances: { currency: string; balance: string }[] };

/** The merchant's balances; payouts and sandbox credits invalidate them. */
export function useBalances() {
  return useQuery({
    queryKey: queryKeys.balances,
    queryFn: () => dashboardFetch<Balances>("/api/dashboard/balances"),
  });
}
