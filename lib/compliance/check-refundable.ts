import "server-only";

import { fieldError } from "@/lib/errors";
import type { HeldPayment } from "./read-held-payment";

/**
 * Refuses a refund of money Kassa does not hold: booked only when the deposit is `rejected` (its coins
 * are in platform:compliance_held; `unwound` means nothing arrived) and the payment is still in the chain
 * (after a reorganisation it waits until mined again). Otherwise the held account would go negative or
 * pay out coins that never arrived.
 */
export function checkRefundable(held: HeldPayment): void {
  if (held.status !== "rejected")
    throw fieldError({ review: `Only a rejected payment is refunded: this one is ${held.status}.` });
  if (held.depositStatus !== "rejected")
    throw fieldError({
      review:
        "A reorganisation removed this payment's block before it was rejected: no coins arrived and nothing is held, so there is nothing to refund.",
    });
  if (held.removedAt)
    throw fieldError({
      review:
        "A reorganisation removed this payment's block after it was rejected: its coins are no longer at Kassa's address (see `cli chain incidents`), so nothing is refunded unless the payment is mined again.",
    });
}
