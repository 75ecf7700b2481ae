import { sql } from "drizzle-orm";
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

/**
 * An amount as a SQL parameter. Always use this in raw SQL: a bare bigint parameter would be sent as
 * its minor units ("166989" for 0.00166989), a factor of 10^8 off.
 */
export const amountSql = (value: bigint) => sql`${formatAmount(value)}::numeric`;

/** amountSql for a nullable amount: SQL NULL for null. */
export const optionalAmountSql = (value: bigint | null) =>
  value === null ? sql`null::numeric` : amountSql(value);
