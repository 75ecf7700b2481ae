import "server-only";

import { amountsDue } from "@/lib/checkout/amounts-due";
import type { Clock } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { lateCredit } from "@/lib/invoices/late-credit";
import type { InvoiceRecord } from "@/lib/invoices/load-invoice";
import { type OwedKind, owedRefund } from "@/lib/invoices/owed-refund";
import { listRefunds, refundedAmount } from "@/lib/withdrawals/list-refunds";
import { reservedByClaims } from "./reserved-by-claims";

export type OwedBack = {
  /** The coin the customer paid, in which the invoice owes them back. */
  currency: string;
  owed: bigint;
  /** `owed` less the refunds standing: plain payouts and the refunds offered or claimed. */
  left: bigint;
  /** Overpaid: the whole of `owed` is excess. Failed short: everything paid goes back. */
  isOverpaid: boolean;
  /** Why it is owed (lib/invoices/owed-refund.ts). */
  kind: OwedKind;
};

/**
 * What an invoice owes its customer back (the one rule, lib/invoices/owed-refund.ts) and what of it
 * no refund covers yet, counting confirmed money only (as lib/withdrawals/assert-refund-fits.ts does). Null when it owes nothing. Read under
 * the invoice's row lock when the answer decides a write.
 */
export async function owedBack(
  db: Executor,
  record: InvoiceRecord,
  options: { clock?: Clock } = {},
): Promise<OwedBack | null> {
  const currency = record.invoice.senderCurrency;
  if (!currency) return null;
  const due = await amountsDue(db, record, { isCreditedOnly: true });
  const owed = owedRefund({
    status: record.status,
    reason: record.invoice.statusReason,
    payCurrency: currency,
    received: record.invoice.confirmedAmount,
    excess: due?.overpaid ?? 0n,
    late: await lateCredit(db, record),
  });
  if (!owed) return null;
  const refunds = await listRefunds(db, { merchantId: record.merchantId, invoiceId: record.id });
  const standing =
    refundedAmount(refunds, currency) +
    (await reservedByClaims(db, { invoiceId: record.id, currency, clock: options.clock }));
  return {
    currency,
    owed: owed.amount,
    left: owed.amount > standing ? owed.amount - standing : 0n,
    isOverpaid: owed.kind === "overpaid",
    kind: owed.kind,
  };
}
