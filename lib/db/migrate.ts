import "server-only";

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { type DatabaseHandle, openDatabase } from "./client";
import { createMigratedPgliteCluster } from "./new-pglite-cluster";

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

/** The migration set, as a short hash of the journal and every migration's SQL. */
export function migrationsFingerprint(): string {
  const hash = createHash("sha256");
  const journal = fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8");
  hash.update(journal);
  for (const { tag } of JSON.parse(journal).entries as { tag: string }[])
    hash.update(fs.readFileSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`)));
  return hash.digest("hex").slice(0, 16);
}

/**
 * The embedded database's cluster in `dataDir`, made and migrated if there is none yet
 * (createMigratedPgliteCluster: a copy of the last one made for the same migrations, when there is).
 */
export async function prepareEmbeddedCluster(dataDir: string): Promise<void> {
  if (fs.existsSync(path.join(dataDir, "PG_VERSION"))) return;
  const { PGlite } = await import("@electric-sql/pglite");
  await createMigratedPgliteCluster(PGlite, dataDir, {
    fingerprint: migrationsFingerprint(),
    migrate: async (newCluster) => {
      const handle = await openDatabase({ kind: "pglite", dataDir: newCluster });
      try {
        await runMigrations(handle);
      } finally {
        await handle.close();
      }
    },
  });
}
