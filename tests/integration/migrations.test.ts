import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCIES } from "@/lib/currencies/registry";
import { queryRows } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

describe(`migrations on an empty ${testDriver} database`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("create every table, and a second run changes nothing", async () => {
    const tables = await queryRows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      "api_keys",
      "currencies",
      "customers",
      "journals",
      "ledger_accounts",
      "ledger_entries",
      "merchants",
      "settings",
      "transactions",
      "users",
    ]);
    await runMigrations(database);
    const applied = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    expect(applied[0]?.count).toBe(2);
  });

  it("hold the currency registry", async () => {
    const rows = await queryRows<{ code: string }>(database.db, sql`select code from currencies order by id`);
    expect(rows.map((r) => r.code)).toEqual(CURRENCIES.map((c) => c.code));
  });

  it("store money as NUMERIC, never as a float type", async () => {
    const columns = await queryRows<{ column_name: string; data_type: string }>(
      database.db,
      sql`select column_name, data_type from information_schema.columns
          where table_schema = 'public' and column_name in ('balance', 'amount', 'minimum_amount', 'network_fee')`,
    );
    expect(columns.length).toBeGreaterThan(4);
    for (const column of columns) expect(column.data_type).toBe("numeric");
  });
});
