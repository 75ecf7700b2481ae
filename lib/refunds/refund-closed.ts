import "server-only";

import { KassaError } from "@/lib/errors";
import type { RefundStatus } from "./read-refund";

/** Why a refund can no longer be claimed or cancelled, in words its reader can act on (409). */
export function refundClosed(input: {
  status: RefundStatus;
  merchantName: string;
  expiresAt: Date;
}): KassaError {
  const message =
    input.status === "claimed"
      ? "This refund has already been claimed: its payout is on its way."
      : input.status === "cancelled"
        ? `${input.merchantName} cancelled this refund. Contact them if you still expect one.`
        : `This refund link expired on ${input.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC. Ask ${input.merchantName} for a new one.`;
  return new KassaError("conflict", message);
}
