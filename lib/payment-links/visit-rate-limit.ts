import "server-only";

import { TokenBuckets } from "@/lib/api/rate-limit";
import { requestAddress } from "@/lib/auth/request-address";
import { KassaError } from "@/lib/errors";

/**
 * Anyone holding a link may start a visit, and each visit writes an invoice and a job: per client
 * address (the peer, or what a trusted proxy names), 30 at once and one a second after that, per
 * process. Generous for people; it stops a script from filling the database.
 */
const visits = new TokenBuckets(1, 30);

export function assertVisitAllowed(request: Request): void {
  const limit = visits.take(requestAddress(request));
  if (limit.isAllowed) return;
  const error = new KassaError(
    "rate_limited",
    "Too many payments started from here. Wait a moment and try again.",
  );
  error.retryAfterSeconds = limit.retryAfterSeconds;
  throw error;
}
