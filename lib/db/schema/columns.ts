import { sql } from "drizzle-orm";
import { customType, timestamp } from "drizzle-orm/pg-core";
import { formatAmount, parseStoredAmount } from "@/lib/money";

/**
 * NUMERIC(38,8) in the database, bigint minor units (10^-8) in the application. Never a float.
 * Read without the input cap: whatever was stored stays readable (writes check the cap instead).
 */
export const money = customType<{ data: bigint; driverData: string }>({
  dataType() {
    return "numeric(38, 8)";
  },
  toDriver(value) {
    return formatAmount(value);
  },
  fromDriver(value) {
    return parseStoredAmount(String(value));
  },
});

/** NUMERIC(78,0) in the database, a bigint integer in the application: a rate's numerator or denominator. */
export const wholeNumber = customType<{ data: bigint; driverData: string }>({
  dataType() {
    return "numeric(78, 0)";
  },
  toDriver(value) {
    return value.toString();
  },
  fromDriver(value) {
    return BigInt(String(value));
  },
});

/** An integer (a rate's part) as a SQL parameter, or SQL NULL. */
export const optionalWholeSql = (value: bigint | null) =>
  value === null ? sql`null::numeric` : sql`${value.toString()}::numeric`;

/**
 * A jsonb value read exactly as stored. Both drivers already parse jsonb into JavaScript values;
 * Drizzle's own jsonb column then JSON.parses any string once more, so a stored JSON string "123"
 * came back as the number 123 (and "12345678901234567890" as 12345678901234567000). Used where a
 * top-level string is an ordinary value: the merchant's any-JSON withdrawal foreign_id.
 */
export const exactJsonb = customType<{ data: unknown; driverData: unknown }>({
  dataType() {
    return "jsonb";
  },
  toDriver(value) {
    return JSON.stringify(value);
  },
  fromDriver(value) {
    return value;
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
