import "server-only";

import { KassaError } from "@/lib/errors";

export type StreamLimits = { perToken: number; perAddress: number; max: number };

/** Seconds a refused page waits before its next try; the page polls the invoice meanwhile. */
const RETRY_AFTER_SECONDS = 30;

/**
 * Counts open checkout streams per invoice, per client address and in all, and refuses one over
 * a cap: 429 for one invoice or one address asking too much (someone else's page is not slowed
 * by it), 503 when the process as a whole is full (load shedding: the streams already open, and
 * every other request, keep being served). Synchronous, so two requests cannot both take the last
 * place.
 */
export function createStreamAdmission(limits: StreamLimits) {
  const byToken = new Map<string, number>();
  const byAddress = new Map<string, number>();
  let total = 0;
  const refuse = (code: "rate_limited" | "service_unavailable", message: string) => {
    const error = new KassaError(code, message);
    error.retryAfterSeconds = RETRY_AFTER_SECONDS;
    return error;
  };
  const change = (map: Map<string, number>, key: string, by: number) => {
    const next = (map.get(key) ?? 0) + by;
    if (next <= 0) map.delete(key);
    else map.set(key, next);
  };
  return {
    /** Takes a place for one stream, or answers the error to send instead. */
    admit(token: string, address: string): KassaError | null {
      if (total >= limits.max)
        return refuse(
          "service_unavailable",
          "Too many live checkout pages on this server; the page updates itself by polling meanwhile.",
        );
      if ((byToken.get(token) ?? 0) >= limits.perToken)
        return refuse(
          "rate_limited",
          `This invoice already has ${limits.perToken} live pages open; close one or retry later.`,
        );
      if ((byAddress.get(address) ?? 0) >= limits.perAddress)
        return refuse(
          "rate_limited",
          `Your address already has ${limits.perAddress} live checkout pages open; close some or retry later.`,
        );
      total++;
      change(byToken, token, 1);
      change(byAddress, address, 1);
      return null;
    },
    release(token: string, address: string): void {
      total--;
      change(byToken, token, -1);
      change(byAddress, address, -1);
    },
    openCount: () => total,
  };
}
