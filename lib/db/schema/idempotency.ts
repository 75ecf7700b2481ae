import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { merchantRef } from "./core";

/**
 * The first answer to a merchant request sent with an `Idempotency-Key` (lib/idempotency): written
 * in the same database transaction as the work the request did, so a committed operation always has
 * its answer stored and a retry replays it. Rows older than 24 hours are ignored and pruned.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    merchantId: merchantRef(),
    key: text("key").notNull(),
    /** SHA-256 of the request path and the exact body bytes: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    statusCode: integer("status_code").notNull(),
    /** The response body exactly as first sent. */
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
