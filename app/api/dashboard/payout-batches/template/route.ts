import { withSession } from "@/lib/api/with-session";
import { payoutCsvTemplate } from "@/lib/payout-batches/payout-csv";

/** The bulk payout file's template: its header line, every column named. */
export const GET = withSession(
  { permission: "payouts.create" },
  async () =>
    new Response(payoutCsvTemplate(), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": 'attachment; filename="kassa-bulk-payout-template.csv"',
        "cache-control": "no-store",
      },
    }),
);
