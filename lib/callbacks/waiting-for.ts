import "server-only";

import { sql } from "drizzle-orm";

/**
 * Per-transaction order: a callback waits while an earlier one of its transaction is still queued,
 * so a merchant never sees `confirmed` before `pending`. Only the status callbacks themselves take
 * part: a resend (`redelivery_of` set) neither waits nor is waited for. This is the id of the
 * earliest callback a row of `callbacks` waits for, or null; the delivery job and the delivery log
 * use the same expression, so what the page says waits is what the job waits on. The outer row is
 * named in full ("callbacks"."id"): drizzle leaves a one-table select's columns unqualified, and
 * inside the subquery those would mean the inner row.
 */
export const waitingForSql = sql<string | number | null>`(
  select e.id from callbacks e
  where e.transaction_id = "callbacks"."transaction_id" and e.id < "callbacks"."id"
    and e.status = 'queued' and e.redelivery_of is null and "callbacks"."redelivery_of" is null
  order by e.id limit 1)`;
