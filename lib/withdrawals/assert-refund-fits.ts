import "server-only";

import { amountsDue } from "@/lib/checkout/amounts-due";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { listOtherCoinCredits } from "@/lib/invoices/list-other-coin-credits";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { owedRefund } from "@/lib/invoices/owed-refund";
import { formatAmountShort } from "@/lib/money";
import { reservedByClaims } from "@/lib/refunds/reserved-by-claims";
import { listRefunds, refundedAmount } from "./list-refunds";

/**
 * Refuses a refund payout the invoice does not owe: another merchant's or no invoice, an invoice
 * that owes nothing, a coin other than the one the customer paid with (or, for a short invoice, a coin
 * they paid to an address shown before switching: owed back in that coin), or more than is left once
 * the refunds already standing are counted. Run inside the transaction that writes the payout: the
 * invoice's row lock makes concurrent refunds of one invoice wait for each other, so each sees the
 * ones committed before it and two together can never exceed what is owed.
 */
export async function assertRefundFits(
  tx: Executor,
  input: {
    merchantId: number;
    invoiceId: number;
    /** The currency sent, and what reaches the address in it. */
    target: string;
    sent: bigint;
    spreadPpm: number;
    /** Request field names for the errors. */
    fields: { amount: string; target: string };
  },
): Promise<void> {
  const record = await loadInvoiceById(tx, input.invoiceId, true);
  if (!record || record.merchantId !== input.merchantId) {
    throw fieldError({ refund_of: `There is no invoice ${input.invoiceId} in your account to refund.` });
  }
  const pay = record.invoice.senderCurrency;
  const isShort =
    record.status === "failed" &&
    (record.invoice.statusReason === "underpaid" || record.invoice.statusReason === "partially_paid");
  if (isShort && input.target !== pay) {
    const other = (await listOtherCoinCredits(tx, record)).find((credit) => credit.currency === input.target);
    if (other) {
      await assertLeft(tx, { ...input, invoiceId: record.id, owed: other.amount });
      return;
    }
  }
  // The excess of confirmed money only: a payment still unconfirmed or held for review is not owed back.
  const due = await amountsDue(tx, record, { spreadPpm: input.spreadPpm, isCreditedOnly: true });
  const owed = owedRefund({
    status: record.status,
    reason: record.invoice.statusReason,
    payCurrency: pay,
    received: record.invoice.confirmedAmount,
    excess: due?.overpaid ?? 0n,
  });
  if (!owed || !pay) {
    throw fieldError({
      refund_of: `Invoice ${record.id} owes no refund: only an overpaid invoice, or one that failed short, does.`,
    });
  }
  if (input.target !== pay) {
    throw fieldError({
      [input.fields.target]:
        `A refund of invoice ${record.id} is sent in ${pay}, the currency the customer paid with.`,
    });
  }
  await assertLeft(tx, { ...input, invoiceId: record.id, owed: owed.amount });
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
  throw fieldError({
    [input.fields.amount]:
      left > 0n
        ? `Invoice ${invoiceId} has ${formatAmountShort(left)} ${coin} left to refund; this payout would send ${formatAmountShort(input.sent)} ${coin}.`
        : `Invoice ${invoiceId} is already refunded in full (${formatAmountShort(input.owed)} ${coin}).`,
  });
}
