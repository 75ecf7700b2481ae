import "server-only";

import type { Executor } from "@/lib/db/client";
import type { TransactionInfo } from "@/lib/schemas/transactions";
import { loadInvoiceWire } from "./load-invoice-wire";
import { wireStatus } from "./wire-status";

/**
 * transactions/info for an invoice: its payments, the exchange they became, fees and timer state,
 * with the status mapped as spec section 3 says (lib/transactions/wire-status.ts; the invoice's own
 * status is in its callbacks and in `additional_details.invoice_status`). The amounts appear once
 * money is in flight or arrived, including on a failed or cancelled invoice the merchant was
 * credited for.
 */
export async function describeInvoice(db: Executor, id: number): Promise<TransactionInfo> {
  const wire = await loadInvoiceWire(db, id);
  const { record } = wire;
  const status = wireStatus(record.status);
  // Money credited counts whatever its coin: a payment to an address shown before a switch of coins
  // is not in `paidAmount`, yet an invoice waiting for the rest of it owes a remainder.
  const hasMoney =
    status === "confirmed" ||
    status === "not_confirmed" ||
    record.invoice.paidAmount > 0n ||
    record.invoice.creditedAmount > 0n;
  return {
    id,
    type: "invoice",
    foreign_id: record.foreignId,
    end_user_reference: record.endUserReference,
    ...(wire.cryptoAddress && { crypto_address: { ...wire.cryptoAddress, foreign_id: record.foreignId } }),
    ...(hasMoney && wire.amounts),
    transactions: wire.transactions,
    fees: wire.fees,
    error: wire.error,
    status,
    // A payment link's invoice names its link; other invoices' details stay as they were.
    additional_details: {
      ...wire.additionalDetails,
      ...(record.invoice.paymentLinkId !== null && { payment_link_id: record.invoice.paymentLinkId }),
    },
  };
}
