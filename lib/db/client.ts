import "server-only";

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations, SQL } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { type PgDatabase, PgDialect, type PgQueryResultHKT, type PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { Pool, QueryResultRow } from "pg";
import { createPgliteCluster } from "./new-pglite-cluster";
import { countQuery, queryCountingLogger } from "./query-count";
import * as schema from "./schema";
import { makeTreeOwnerOnly } from "./secure-data-dir";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

export type Driver = { kind: "pglite"; client: PGlite } | { kind: "pg"; pool: Pool };

export type DatabaseHandle = {
  driver: Driver;
  db: Db;
  close: () => Promise<void>;
};

export type OpenOptions =
  // No dataDir: in memory (tests). `loadDataDir`: a PGlite dump to start from instead of an empty
  // cluster (the test suite's migrated template, tests/support/database-template.ts).
  { kind: "pglite"; dataDir?: string; loadDataDir?: Blob } | { kind: "pg"; url: string; poolSize?: number };

const driverOf = new WeakMap<Executor, Driver>();

export function wrapDriver(driver: Driver): Db {
  const db =
    driver.kind === "pglite"
      ? (drizzlePglite(driver.client, { schema, logger: queryCountingLogger }) as unknown as Db)
      : (drizzlePg(driver.pool, { schema, logger: queryCountingLogger }) as unknown as Db);
  driverOf.set(db, driver);
  return db;
}

/**
 * The embedded database's buffer cache: PGlite's 128 MB default lives in its WebAssembly memory,
 * which never shrinks, for as long as the process runs. 32 MB takes about 90 MB off the server's
 * resident memory, the operating system's cache holding the rest (docs/BENCHMARKS.md, section 3).
 */
export const PGLITE_SHARED_BUFFERS = "32MB";

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  let driver: Driver;
  if (options.kind === "pglite") {
    const { PGlite } = await import("@electric-sql/pglite");
    // A new data directory is made by initdb, in a second WebAssembly instance whose memory the
    // first one keeps reachable: about 450 MB of the process's resident memory for as long as it
    // runs (measured: 812 MB after creating and migrating, 487 MB for the same directory reopened).
    // So a directory is created, closed, then opened again: about a second, once per installation.
    if (options.dataDir && !options.loadDataDir && !fs.existsSync(path.join(options.dataDir, "PG_VERSION")))
      await createPgliteCluster(PGlite, options.dataDir);
    const client = await PGlite.create(options.dataDir, {
      loadDataDir: options.loadDataDir,
      startParams: [
        ...PGlite.defaultStartParams,
        "-c",
        `shared_buffers=${PGLITE_SHARED_BUFFERS}`,
        // New jobs wake the runners (drizzle/0047_jobs_notify.sql); PostgreSQL's sessions leave it off.
        "-c",
        "kassa.announce_jobs=on",
      ],
    });
    if (options.dataDir) makeTreeOwnerOnly(options.dataDir);
    driver = { kind: "pglite", client };
  } else {
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Bounded waits: no request may hold a connection, or the event loop, indefinitely.
      statement_timeout: 15_000,
      idle_in_transaction_session_timeout: 30_000,
      connectionTimeoutMillis: 10_000,
    });
    pool.on("error", (error) => console.error("[db] idle client error:", error.message));
    driver = { kind: "pg", pool };
  }
  const db = wrapDriver(driver);
  let closed = false;
  return {
    driver,
    db,
    close: async () => {
      if (closed) return;
      closed = true;
      if (driver.kind === "pglite") await driver.client.close();
      else await driver.pool.end();
    },
  };
}

/**
 * The process-wide handle lives on globalThis (docs/architecture.md): Next bundles route handlers and
 * pages into two runtimes, each with its own copy of this module, and dev hot reload re-evaluates it
 * while the database stays open. Each copy wraps the one driver in its own Drizzle instance (none shared).
 */
const GLOBAL_KEY = Symbol.for("kassa.database");
type GlobalSlot = { [GLOBAL_KEY]?: DatabaseHandle };
let cached: { driver: Driver; db: Db } | undefined;

export function registerDatabase(handle: DatabaseHandle): void {
  (globalThis as GlobalSlot)[GLOBAL_KEY] = handle;
  cached = undefined;
}

export function unregisterDatabase(): void {
  delete (globalThis as GlobalSlot)[GLOBAL_KEY];
  cached = undefined;
}

export function getDb(): Db {
  const handle = (globalThis as GlobalSlot)[GLOBAL_KEY];
  if (!handle) throw new Error("the database is not open (start Kassa through server.ts)");
  if (cached?.driver !== handle.driver) cached = { driver: handle.driver, db: wrapDriver(handle.driver) };
  return cached.db;
}

/** The open database's driver (the checkout hub listens on it). */
export function getDriver(): Driver {
  const handle = (globalThis as GlobalSlot)[GLOBAL_KEY];
  if (!handle) throw new Error("the database is not open (start Kassa through server.ts)");
  return handle.driver;
}

export function getDriverKind(): Driver["kind"] | undefined {
  return (globalThis as GlobalSlot)[GLOBAL_KEY]?.driver.kind;
}

const dialect = new PgDialect();
const statementNames = new Map<string, string>();

/**
 * queryRows for a statement run many times a second, such as an API write. Run on the database
 * handle on PostgreSQL, it is a named prepared statement (named after its text), so each connection
 * parses and plans it once instead of on every call: for the invoice and withdrawal writes, planning
 * was a third of the database's time. In a transaction, or on PGlite, it is a plain query. Rows come
 * back as the driver parses them (bigint and numeric as strings); read them with Number() and
 * parseStoredAmount().
 */
export async function queryRowsPrepared<T>(db: Executor, query: SQL): Promise<T[]> {
  const driver = driverOf.get(db);
  if (driver?.kind !== "pg") return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  let name = statementNames.get(text);
  if (!name) {
    name = `kassa_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    if (statementNames.size < 1_000) statementNames.set(text, name);
  }
  countQuery();
  const result = await driver.pool.query<T & QueryResultRow>({ name, text, values: params });
  return result.rows;
}

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
