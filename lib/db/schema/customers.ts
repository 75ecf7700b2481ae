import { bigserial, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { merchantRef } from "./core";

/**
 * A merchant's customer as identified by `end_user_reference`. The first request that names a
 * reference records the identity; later requests must not contradict it (spec 2.1).
 */
export const customers = pgTable(
  "customers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    endUserReference: text("end_user_reference").notNull(),
    type: text("type", { enum: ["natural", "legal"] }).notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    dateOfBirth: text("date_of_birth"),
    legalName: text("legal_name"),
    countryOfRegistration: text("country_of_registration"),
    email: text("email"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("customers_merchant_reference_key").on(t.merchantId, t.endUserReference)],
);
