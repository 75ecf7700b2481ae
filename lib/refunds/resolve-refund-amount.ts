import "server-only";

import { fieldError } from "@/lib/errors";
import { formatAmountShort } from "@/lib/money";
import type { OwedBack } from "./owed-back";
import type { RefundTerms } from "./refund-terms";

/**
 * What a refund settles in the coin paid, from the terms: refused when nothing is left to refund,
 * `excess` of an invoice that was not overpaid, or a custom amount above what is left. A custom
 * amount may go above what is left only up to `reach`, the smallest refund the network sends (the
 * "larger amount" offered when what is owed falls under the network's minimum).
 */
export function resolveRefundAmount(input: {
  invoiceId: number;
  owed: OwedBack;
  amount: RefundTerms["amount"];
  reach: bigint;
}): bigint {
  const { owed, invoiceId } = input;
  const coin = owed.currency;
  if (owed.left === 0n) {
    throw fieldError({
      amount: `Invoice ${invoiceId} is already refunded in full (${formatAmountShort(owed.owed)} ${coin}), or a refund of it is still open.`,
    });
  }
  if (input.amount.kind === "full") return owed.left;
  if (input.amount.kind === "excess") {
    if (!owed.isOverpaid)
      throw fieldError({
        amount: `Invoice ${invoiceId} was not overpaid, so it has no excess: ${owed.kind === "late" ? "the payment that arrived after it closed" : "it failed short, and all"} ${formatAmountShort(owed.owed)} ${coin} ${owed.kind === "late" ? "is" : "paid is"} owed back.`,
      });
    return owed.left;
  }
  const units = input.amount.units;
  const most = owed.left > input.reach ? owed.left : input.reach;
  if (units <= 0n) throw fieldError({ amount: "The refund amount must be more than zero." });
  if (units > most)
    throw fieldError({
      amount: `A refund of invoice ${invoiceId} can be at most ${formatAmountShort(most)} ${coin}${most > owed.left ? ", the network's minimum" : ", what is left to refund"}.`,
    });
  return units;
}
