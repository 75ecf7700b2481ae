import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { SecretBox } from "@/lib/crypto/secret-box";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or, when
 * KASSA_TEST_DATABASE_URL names a PostgreSQL server, a new database created on it (and dropped
 * afterwards), so files never see each other's rows and both engines run the same tests.
 */
export const testDriver: "pglite" | "pg" = process.env.KASSA_TEST_DATABASE_URL ? "pg" : "pglite";

export type TestDatabase = DatabaseHandle & { box: SecretBox; url?: string; drop: () => Promise<void> };

export async function createTestDatabase(): Promise<TestDatabase> {
  const box = new SecretBox(randomBytes(32));
  const serverUrl = process.env.KASSA_TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ kind: "pglite" });
    await runMigrations(handle);
    await syncCurrencies(handle.db);
    return { ...handle, box, drop: handle.close };
  }
  const name = `kassa_test_${randomBytes(6).toString("hex")}`;
  const admin = await openDatabase({ kind: "pg", url: serverUrl, poolSize: 1 });
  await admin.db.execute(sql.raw(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: "pg", url: url.toString(), poolSize: 20 });
  await runMigrations(handle);
  await syncCurrencies(handle.db);
  return {
    ...handle,
    box,
    url: url.toString(),
    drop: async () => {
      await handle.close();
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    },
  };
}
