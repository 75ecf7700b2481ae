import fs from "node:fs";
import path from "node:path";
import { is, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCIES } from "@/lib/currencies/registry";
import { queryRows } from "@/lib/db/client";
import { MIGRATIONS_FOLDER, runMigrations } from "@/lib/db/migrate";
import * as schema from "@/lib/db/schema";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

describe(`migrations on an empty ${testDriver} database`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("create every table of the schema, and a second run changes nothing", async () => {
    const tables = await queryRows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const expected = Object.values(schema)
      .filter((value) => is(value, PgTable))
      .map((table) => getTableConfig(table as PgTable).name)
      .sort();
    expect(expected.length).toBeGreaterThan(10);
    expect(tables.map((t) => t.table_name)).toEqual(expected);
    await runMigrations(database);
    const applied = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    const journal = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
    );
    expect(applied[0]?.count).toBe(journal.entries.length);
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
