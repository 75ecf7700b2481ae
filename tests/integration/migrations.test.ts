import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql, TransactionRollbackError } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCIES } from "@/lib/currencies/registry";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { type DatabaseHandle, openDatabase, queryRows } from "@/lib/db/client";
import { MIGRATIONS_FOLDER, runMigrations } from "@/lib/db/migrate";
import * as schema from "@/lib/db/schema";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { databaseShape, declaredShape } from "../support/schema-shape";

const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"));
const declared = declaredShape(schema);

describe(`migrations on an empty ${testDriver} database`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("build every table exactly as lib/db/schema declares it: columns, keys, checks and indexes", async () => {
    expect(Object.keys(declared).length).toBeGreaterThan(20);
    expect(await databaseShape(database.db)).toEqual(declared);
  });

  it("are caught when they differ from the schema (a lost NOT NULL, a missing index)", async () => {
    // The comparison on a drifted copy, rolled back: it must see the drift, or the test above proves nothing.
    let shape: Awaited<ReturnType<typeof databaseShape>> | undefined;
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`alter table merchants alter column email drop not null`);
        await tx.execute(sql`drop index jobs_due_idx`);
        shape = await databaseShape(tx);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    expect(shape?.merchants?.columns.email?.isNotNull).toBe(false);
    expect(shape?.jobs?.indexes.jobs_due_idx).toBeUndefined();
    expect(shape).not.toEqual(declared);
    expect(await databaseShape(database.db)).toEqual(declared);
  });

  it("run once: a second run applies nothing", async () => {
    await runMigrations(database);
    const applied = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    expect(applied[0]?.count).toBe(journal.entries.length);
    expect(await databaseShape(database.db)).toEqual(declared);
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

/** A database with no migrations applied: in memory on PGlite, a new database on the PostgreSQL server. */
async function openEmptyDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const serverUrl = process.env.KASSA_TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ kind: "pglite" });
    return { handle, drop: () => handle.close() };
  }
  const name = `kassa_test_${randomBytes(6).toString("hex")}`;
  const admin = await openDatabase({ kind: "pg", url: serverUrl, poolSize: 1 });
  await admin.db.execute(sql.raw(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: "pg", url: url.toString(), poolSize: 2 });
  return {
    handle,
    drop: async () => {
      await handle.close();
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    },
  };
}

/** The migrations folder as it was up to and including `lastIdx`. */
function migrationsUpTo(lastIdx: number): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-migrations-"));
  fs.mkdirSync(path.join(folder, "meta"));
  const entries = journal.entries.filter((e: { idx: number }) => e.idx <= lastIdx);
  fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const entry of entries as { tag: string }[])
    fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  return folder;
}

describe(`migrations on a ${testDriver} database populated at 0007`, () => {
  let empty: Awaited<ReturnType<typeof openEmptyDatabase>>;
  let folder: string;
  let db: DatabaseHandle["db"];

  beforeAll(async () => {
    empty = await openEmptyDatabase();
    db = empty.handle.db;
    folder = migrationsUpTo(7);
    if (empty.handle.driver.kind === "pglite")
      await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder: folder });
    else await migratePg(db as unknown as NodePgDatabase, { migrationsFolder: folder });
    await syncCurrencies(db);
    // Rows in the columns of 0007: 8-digit rates, a withdrawal already sent, a queued job.
    await db.execute(sql`insert into merchants (id, name, email) values (1, 'Old', 'old@example.com')`);
    await db.execute(sql`
      insert into transactions (id, merchant_id, type, status, currency, amount) values
        (1, 1, 'invoice', 'pending', 'EUR', 100), (2, 1, 'withdrawal', 'processing', 'BTC', 0.5)`);
    await db.execute(sql`
      insert into invoices (transaction_id, merchant_id, token, title, type, has_timer, url_success, url_failed,
                            email_user, sender_type, sender_data, sender_currency, sender_amount, rate, spread_ppm)
      values (1, 1, 't', 'Old', 'fill_or_kill', true, 'https://a.example', 'https://b.example', 'a@example.com',
              'natural', '{}', 'BTC', 0.00166989, 59884.25925925, 5000)`);
    await db.execute(sql`
      insert into withdrawals (transaction_id, merchant_id, kind, foreign_id_raw, source_currency, target_currency,
                               principal, sent_amount, withdrawal_fee, network_fee, total_debit, rate, mid_rate,
                               spread_ppm, address, sender_type, sender_data, receiver_type, txid, broadcast_at)
      values (2, 1, 'withdrawal', '"w"', 'BTC', 'BTC', 0.5, 0.5, 0, 0, 0.5, 1, 1, 0, 'bc1q', 'legal', '{}', 'self',
              'abc', now() - interval '1 hour')`);
    await db.execute(
      sql`insert into jobs (queue, payload, dedupe_key) values ('invoice.expire', '{"id": 1}', 'e1')`,
    );
    await runMigrations(empty.handle);
  });
  afterAll(async () => {
    await empty?.drop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("end exactly as lib/db/schema declares it", async () => {
    expect(await databaseShape(db)).toEqual(declared);
  });

  it("keep the rows, now in the current columns", async () => {
    const [invoice] = await db.select().from(schema.invoices).where(eq(schema.invoices.transactionId, 1));
    expect(invoice!.rateNumerator! * 100_000_000n).toBe(5_988_425_925_925n * invoice!.rateDenominator!);
    expect(invoice!.senderAmount).toBe(166_989n);
    const [sent] = await db.select().from(schema.transactions).where(eq(schema.transactions.id, 2));
    expect(sent!.status).toBe("sending");
    const [withdrawal] = await db
      .select()
      .from(schema.withdrawals)
      .where(eq(schema.withdrawals.transactionId, 2));
    expect(withdrawal!.claimedAt).not.toBeNull();
    expect(withdrawal!.rateNumerator).toBe(withdrawal!.rateDenominator);
    // 0020 gave the old withdrawal its destination's address record (crypto_address.id).
    const [destination] = await db
      .select()
      .from(schema.payoutAddresses)
      .where(eq(schema.payoutAddresses.id, withdrawal!.payoutAddressId!));
    expect(destination).toMatchObject({ merchantId: 1, currency: "BTC", address: "bc1q", tag: "" });
    const [job] = await db.select().from(schema.jobs);
    expect(job).toMatchObject({
      queue: "invoice.expire",
      status: "queued",
      dedupeKey: "e1",
      leaseToken: null,
    });
  });
});

describe(`migrations on a ${testDriver} database with API keys from before callback keys (0033)`, () => {
  let empty: Awaited<ReturnType<typeof openEmptyDatabase>>;
  let folder: string;
  let db: DatabaseHandle["db"];

  beforeAll(async () => {
    empty = await openEmptyDatabase();
    db = empty.handle.db;
    folder = migrationsUpTo(33);
    if (empty.handle.driver.kind === "pglite")
      await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder: folder });
    else await migratePg(db as unknown as NodePgDatabase, { migrationsFolder: folder });
    // Merchant 1: a full key, then a newer developer key, a newer revoked full key and a full key
    // past its roll's overlap (rolled into key 5). Merchant 2: developer keys only.
    await db.execute(
      sql`insert into merchants (id, name, email) values (1, 'A', 'a@example.com'), (2, 'B', 'b@example.com')`,
    );
    await db.execute(sql`
      insert into api_keys (id, merchant_id, key, secret_sealed, can_move_money, revoked_at, expires_at) values
        (1, 1, 'pk_full', 's', true, null, null),
        (2, 1, 'pk_dev', 's', false, null, null),
        (3, 1, 'pk_revoked', 's', true, now(), null),
        (4, 1, 'pk_rolled', 's', true, null, now() - interval '1 hour'),
        (5, 1, 'pk_rolled_into', 's', false, null, null),
        (6, 2, 'pk_dev_b', 's', false, null, null)`);
    await db.execute(sql`
      insert into audit_entries (merchant_id, actor, action, detail) values
        (1, 'owner@a.example', 'api_key_rolled', 'pk_rolled → pk_rolled_into; old key valid until 2026-01-01T00:00:00.000Z')`);
    await runMigrations(empty.handle);
  });
  afterAll(async () => {
    await empty?.drop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("designate each merchant's newest active key that may move money, and none when it has no such key", async () => {
    const rows = await db
      .select({ id: schema.merchants.id, callbackKeyId: schema.merchants.callbackKeyId })
      .from(schema.merchants)
      .orderBy(schema.merchants.id);
    expect(rows).toEqual([
      { id: 1, callbackKeyId: 1 },
      { id: 2, callbackKeyId: null },
    ]);
  });

  it("read a roll's replacement back from its audit entry", async () => {
    const keys = await db
      .select({ id: schema.apiKeys.id, replacedById: schema.apiKeys.replacedById })
      .from(schema.apiKeys)
      .orderBy(schema.apiKeys.id);
    expect(keys.map((k) => [k.id, k.replacedById])).toEqual([
      [1, null],
      [2, null],
      [3, null],
      [4, 5],
      [5, null],
      [6, null],
    ]);
  });
});
