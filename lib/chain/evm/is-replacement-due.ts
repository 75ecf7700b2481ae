import "server-only";

import { type Clock, systemClock } from "@/lib/clock";

/** Whether a payout's or sweep's current attempt has waited unmined longer than the replacement threshold. */
export function isReplacementDue(
  attempt: { signedAt: Date },
  replacement: { afterSeconds: number; clock?: Clock },
): boolean {
  const now = (replacement.clock ?? systemClock).now().getTime();
  return attempt.signedAt.getTime() + replacement.afterSeconds * 1000 <= now;
}
