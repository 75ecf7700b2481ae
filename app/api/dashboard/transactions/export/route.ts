import { withSession } from "@/lib/api/with-session";
import { loadAccountingFields } from "@/lib/transactions/accounting-fields";
import { listTransactions } from "@/lib/transactions/list-transactions";
import { parseFilter } from "@/lib/transactions/parse-filter";
import { toCsvCell } from "@/lib/transactions/to-csv-cell";

const COLUMNS = [
  "id",
  "created_at",
  "type",
  "status",
  "wire_status",
  "currency",
  "amount",
  "foreign_id",
  "end_user_reference",
  "fee",
  "fee_currency",
  "net",
  "net_currency",
  "destination_address",
  "txid",
  "fiat_value",
  "fiat_currency",
] as const;

/**
 * CSV of everything the current filter matches, with what an accountant needs of each (fee, net,
 * address, txid, fiat value: lib/transactions/accounting-fields.ts), streamed page by page (keyset)
 * so it scales. The filter is checked (parseFilter refuses dates the database cannot hold) and the
 * first page read before the answer starts, so a bad filter is a 400, not a download cut off after
 * its header line.
 */
export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session, query }) => {
  const { filter } = parseFilter(query);
  const page = (before?: number) =>
    listTransactions(db, { merchantId: session.merchantId, filter, before, limit: 1000 });
  const first = await page();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(`${COLUMNS.join(",")}\r\n`));
      for (let current = first; ; current = await page(current.nextBefore!)) {
        const accounting = await loadAccountingFields(db, current.rows);
        const lines = current.rows
          .map((row) => ({ ...row, ...accounting.get(row.id)! }))
          .map((row) => COLUMNS.map((column) => toCsvCell(row[column])).join(","))
          .join("\r\n");
        if (lines) controller.enqueue(encoder.encode(`${lines}\r\n`));
        if (current.nextBefore === null) break;
      }
      controller.close();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="kassa-transactions-${new Date().toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
    },
  });
});
