import "server-only";

import { type Clock, systemClock } from "@/lib/clock";

/** When a tracker replaces a stuck payout or sweep: after how long unmined, under which fee ceiling. */
export type ReplacementPolicy = { afterSeconds: number; ceilingGwei: number; clock?: Clock };

/** Whether a payout's or sweep's current attempt has waited unmined longer than the replacement threshold. */
export function isReplacementDue(attempt: { signedAt: Date }, replacement: ReplacementPolicy): boolean {
  const now = (replacement.clock ?? systemClock).now().getTime();
  return attempt.signedAt.getTime() + replacement.afterSeconds * 1000 <= now;
}
