import "server-only";

import { computeCredit } from "@/lib/deposits/compute-credit";
import { recordedParts } from "@/lib/deposits/rate-payment";
import type { InvoiceDeposit } from "@/lib/invoices/list-invoice-deposits";
import type { InvoiceRecord } from "@/lib/invoices/load-invoice";
import { formatAmount } from "@/lib/money";
import type { TransactionEntry } from "./info-fields";

/**
 * An invoice's `exchange` entries: one per coin (other than the invoice currency) its credited payments,
 * late ones included, came in, pairing that coin's received sum with its gross before the deposit fee.
 * Each payment's gross is computed as crediting did (book-deposit.ts: recorded rates, rounded down per
 * payment), so the entries add up to the ledger's exchange postings. `deposits`: the invoice's, any status
 * (lib/invoices/list-invoice-deposits.ts).
 */
export function listInvoiceExchanges(record: InvoiceRecord, deposits: InvoiceDeposit[]): TransactionEntry[] {
  const rows = deposits.filter((row) => row.status === "credited");
  const byCoin = new Map<string, { amount: bigint; gross: bigint }>();
  for (const row of rows) {
    if (row.currency === record.currency) continue;
    // Crediting records the rate it used when none was recorded at the moment the payment was seen.
    const parts = recordedParts(row, record.currency);
    if (!parts) continue;
    const { gross } = computeCredit({ parts, payCurrency: row.currency, creditCurrency: record.currency });
    const sum = byCoin.get(row.currency) ?? { amount: 0n, gross: 0n };
    byCoin.set(row.currency, { amount: sum.amount + row.amount, gross: sum.gross + gross });
  }
  return [...byCoin].map(([currency, sum]) => ({
    id: record.id,
    currency,
    currency_to: record.currency,
    transaction_type: "exchange",
    type: "exchange",
    amount: formatAmount(sum.amount),
    amount_to: formatAmount(sum.gross),
  }));
}
