import { withSession } from "@/lib/api/with-session";
import { listTransactions } from "@/lib/transactions/list-transactions";
import { parseFilter } from "@/lib/transactions/parse-filter";

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
] as const;

/** A CSV cell: quoted, and never read as a formula by a spreadsheet (leading = + - @ are escaped). */
function cell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * CSV of everything the current filter matches, streamed page by page (keyset) so it scales. The
 * first page is read before the answer starts: a filter the database refuses (a NUL in `q`) is
 * then a 400, not a download cut off after its header line.
 */
export const GET = withSession({}, async ({ db, session, query }) => {
  const { filter } = parseFilter(query);
  const page = (before?: number) =>
    listTransactions(db, { merchantId: session.merchantId, filter, before, limit: 1000 });
  const first = await page();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(`${COLUMNS.join(",")}\r\n`));
      for (let current = first; ; current = await page(current.nextBefore!)) {
        const lines = current.rows
          .map((row) => COLUMNS.map((column) => cell(row[column])).join(","))
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
