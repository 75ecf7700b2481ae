import "server-only";

import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { listOtherCoinCredits } from "@/lib/invoices/list-other-coin-credits";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { formatAmountShort } from "@/lib/money";
import { owedBack } from "@/lib/refunds/owed-back";
import { reservedByClaims } from "@/lib/refunds/reserved-by-claims";
import { listRefunds, refundedAmount } from "./list-refunds";

/**
 * Refuses a refund payout the invoice does not owe: not the merchant's, owing nothing, a coin other than
 * the one paid (for a short invoice, also one paid before switching), or more than is left after standing
 * refunds. Run in the transaction that writes the payout: the invoice's row lock serialises concurrent
 * refunds, so together they never exceed what is owed.
 */
export async function assertRefundFits(
  tx: Executor,
  input: {
    merchantId: number;
    invoiceId: number;
    /** The currency sent, and what reaches the address in it. */
    target: string;
    sent: bigint;
    /** Request field names for the errors. */
    fields: { amount: string; target: string };
  },
): Promise<void> {
  const record = await loadInvoiceById(tx, input.invoiceId, true);
  if (!record || record.merchantId !== input.merchantId) {
    throw fieldError({ refund_of: `There is no invoice ${input.invoiceId} in your account to refund.` });
  }
  const isShort =
    record.status === "failed" &&
    (record.invoice.statusReason === "underpaid" || record.invoice.statusReason === "partially_paid");
  if (isShort && input.target !== record.invoice.senderCurrency) {
    const other = (await listOtherCoinCredits(tx, record)).find((credit) => credit.currency === input.target);
    if (other) {
      await assertLeft(tx, { ...input, invoiceId: record.id, owed: other.amount });
      return;
    }
  }
  // What is owed and left, of confirmed money only: a payment still unconfirmed or held for review is not owed back.
  const owed = await owedBack(tx, record);
  if (!owed) {
    throw fieldError({
      refund_of: `Invoice ${record.id} owes no refund: only an invoice that failed short, was overpaid, or was paid after it closed does.`,
    });
  }
  if (input.target !== owed.currency) {
    throw fieldError({
      [input.fields.target]:
        `A refund of invoice ${record.id} is sent in ${owed.currency}, the currency the customer paid with.`,
    });
  }
  if (input.sent > owed.left)
    throw tooMuch({ ...input, invoiceId: record.id, owed: owed.owed, left: owed.left });
}

/** Refuses a refund in `target` beyond what is `owed` in it less the refunds standing. */
async function assertLeft(
  tx: Executor,
  input: {
    merchantId: number;
    invoiceId: number;
    target: string;
    sent: bigint;
    owed: bigint;
    fields: { amount: string };
  },
): Promise<void> {
  const { invoiceId, target: coin } = input;
  const refunds = await listRefunds(tx, { merchantId: input.merchantId, invoiceId });
  // A refund offered to the customer (lib/refunds) holds its part until claimed, cancelled or lapsed.
  const held = await reservedByClaims(tx, { invoiceId, currency: coin });
  const left = input.owed - refundedAmount(refunds, coin) - held;
  if (input.sent <= left) return;
  throw tooMuch({ ...input, left });
}

/** The refusal of a payout beyond what is `left` of what the invoice `owed` in `target`. */
function tooMuch(input: {
  invoiceId: number;
  target: string;
  sent: bigint;
  owed: bigint;
  left: bigint;
  fields: { amount: string };
}) {
  const { invoiceId, target: coin, left } = input;
  return fieldError({
    [input.fields.amount]:
      left > 0n
        ? `Invoice ${invoiceId} has ${formatAmountShort(left)} ${coin} left to refund; this payout would send ${formatAmountShort(input.sent)} ${coin}.`
        : `Invoice ${invoiceId} is already refunded in full (${formatAmountShort(input.owed)} ${coin}).`,
  });
}
