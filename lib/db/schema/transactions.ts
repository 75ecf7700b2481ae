import { sql } from "drizzle-orm";
import { bigint, bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, money } from "./columns";
import { apiKeys, currencies, merchantRef } from "./core";

/**
 * Every merchant-visible operation (invoice, deposit, withdrawal, withdrawal_exchange,
 * withdrawal_instant, exchange) draws its id from this one sequence, and `foreign_id` is unique
 * per merchant across all kinds (DESIGN.md section 6).
 */
export const transactions = pgTable(
  "transactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    foreignId: text("foreign_id"),
    endUserReference: text("end_user_reference"),
    currency: text("currency").references(() => currencies.code),
    amount: money("amount"),
    details: jsonb("details").notNull().default({}),
    /** The API key whose request created it; null: the dashboard or Kassa itself. Its callbacks are signed by that key. */
    apiKeyId: bigint("api_key_id", { mode: "number" }).references(() => apiKeys.id),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("transactions_merchant_foreign_id_key")
      .on(t.merchantId, t.foreignId)
      .where(sql`${t.foreignId} is not null`),
    index("transactions_merchant_created_idx").on(t.merchantId, t.id),
    index("transactions_merchant_type_idx").on(t.merchantId, t.type, t.id),
    index("transactions_merchant_status_idx").on(t.merchantId, t.status, t.id),
    index("transactions_merchant_reference_idx").on(t.merchantId, t.endUserReference),
  ],
);
