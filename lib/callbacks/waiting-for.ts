import "server-only";

import { sql } from "drizzle-orm";

/**
 * The id of the earliest callback a `callbacks` row waits for, or null: an earlier status callback of
 * its transaction still queued (so `confirmed` never precedes `pending`); resends (`redelivery_of`) neither
 * wait nor are waited for. Shared by the delivery job and the log. The outer row is named in full: drizzle
 * leaves one-table columns unqualified, which inside the subquery would mean the inner row.
 */
export const waitingForSql = sql<string | number | null>`(
  select e.id from callbacks e
  where e.transaction_id = "callbacks"."transaction_id" and e.id < "callbacks"."id"
    and e.status = 'queued' and e.redelivery_of is null and "callbacks"."redelivery_of" is null
  order by e.id limit 1)`;
