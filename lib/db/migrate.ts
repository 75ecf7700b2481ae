import "server-only";

import path from "node:path";
import { fileURLToPath } from "node:url";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { DatabaseHandle } from "./client";

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

/** Arbitrary but fixed: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK_ID = 7_260_101;

/**
 * Applies the checked-in migrations. On PostgreSQL several instances may start at once, so the
 * migration runs under a session advisory lock: the first migrates, the others wait and then
 * find nothing left to do.
 */
export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  const { driver, db } = handle;
  if (driver.kind === "pglite") {
    await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const client = await driver.pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migratePg(db as unknown as NodePgDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}
