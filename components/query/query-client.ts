import { QueryClient } from "@tanstack/react-query";
import { DashboardRequestError } from "./dashboard-fetch";

/** Asking again after a refusal (4xx) gets the same refusal: only network errors and 5xx are retried. */
export const MAX_RETRIES = 2;

export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && error instanceof DashboardRequestError && error.isTransient;
}

/** The dashboard's query client; mutations keep React Query's default of no retry (a retried POST could act twice). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { staleTime: 5_000, retry: shouldRetry, refetchOnWindowFocus: true } },
  });
}
