import "server-only";

import { fieldError } from "@/lib/errors";
import type { HeldPayment } from "./read-held-payment";

/**
 * Refuses a refund of money Kassa does not hold: a refund leaves platform:compliance_held, so it is
 * booked only when the rejection booked the coins there (the deposit `rejected`; `unwound` means a
 * reorganisation had removed the block before the rejection, nothing arrived and nothing was held) and
 * the payment is still in the chain (a reorganisation after the rejection took the coins back: a chain
 * incident, and the refund waits until the payment is mined again). Either way the held account
 * would go below zero, or pay out coins that never reached Kassa's address.
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
