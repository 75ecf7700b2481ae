import { customType, timestamp } from "drizzle-orm/pg-core";
import { formatAmount, parseDecimal } from "@/lib/money";

/** NUMERIC(38,8) in the database, bigint minor units (10^-8) in the application. Never a float. */
export const money = customType<{ data: bigint; driverData: string }>({
  dataType() {
    return "numeric(38, 8)";
  },
  toDriver(value) {
    return formatAmount(value);
  },
  fromDriver(value) {
    return parseDecimal(String(value));
  },
});

export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
