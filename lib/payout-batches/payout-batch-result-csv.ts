import "server-only";

import type { PayoutBatchView } from "@/lib/schemas/payout-batches";
import { toCsvCell } from "@/lib/transactions/to-csv-cell";

const HEADER = [
  "line",
  "reference",
  "id",
  "status",
  "currency",
  "amount",
  "fee",
  "sent_currency",
  "sent_amount",
  "address",
  "tag",
  "txid",
  "error",
];

/**
 * A bulk payout's result, one line per payout in the order of its file: the line it came from, its
 * reference (foreign_id), Kassa's id, status and txid. Every cell formula-safe: references and
 * errors carry text that a spreadsheet must not run.
 */
export function payoutBatchResultCsv(view: PayoutBatchView): string {
  const lines = [HEADER.map(toCsvCell).join(",")];
  for (const p of view.payouts) {
    const reference = typeof p.foreign_id === "string" ? p.foreign_id : JSON.stringify(p.foreign_id);
    lines.push(
      [
        p.row,
        reference,
        p.id,
        p.internal_status,
        p.sender_currency,
        p.amount,
        p.fee,
        p.receiver_currency,
        p.receiver_amount,
        p.address,
        p.tag ?? "",
        p.txid ?? "",
        p.error ?? "",
      ]
        .map(toCsvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
