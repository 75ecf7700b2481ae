import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { SecretBox } from "@/lib/crypto/secret-box";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { seedRates } from "@/lib/rates/rates";

/**
 * A fresh, migrated database for one test file: PGlite by default, or, when
 * KASSA_TEST_DATABASE_URL names a PostgreSQL server, a new database created on it (and dropped
 * afterwards), so files never see each other's rows and both engines run the same tests.
 * `reopen()` closes the connection and opens the same database again, as a restart would.
 */
export const testDriver: "pglite" | "pg" = process.env.KASSA_TEST_DATABASE_URL ? "pg" : "pglite";

/** Where the database lives, for a child process that opens it too (after this one closed it, on PGlite). */
export type TestDatabaseLocation =
  | { kind: "pglite"; dataDir: string | undefined }
  | { kind: "pg"; url: string };

export type TestDatabase = DatabaseHandle & {
  box: SecretBox;
  location: TestDatabaseLocation;
  drop: () => Promise<void>;
  reopen: () => Promise<TestDatabase>;
};

async function prepare(handle: DatabaseHandle): Promise<void> {
  await runMigrations(handle);
  await syncCurrencies(handle.db);
  await seedRates(handle.db);
}

export async function createTestDatabase(options: { isPersistent?: boolean } = {}): Promise<TestDatabase> {
  const box = new SecretBox(randomBytes(32));
  const serverUrl = process.env.KASSA_TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = options.isPersistent ? fs.mkdtempSync(path.join(os.tmpdir(), "kassa-test-")) : undefined;
    const open = async (): Promise<TestDatabase> => {
      const handle = await openDatabase({ kind: "pglite", dataDir });
      await prepare(handle);
      return {
        ...handle,
        box,
        location: { kind: "pglite", dataDir },
        drop: async () => {
          await handle.close();
          if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
        },
        reopen: async () => {
          if (!dataDir) throw new Error("reopen needs { isPersistent: true } on PGlite");
          await handle.close();
          return open();
        },
      };
    };
    return open();
  }
  const name = `kassa_test_${randomBytes(6).toString("hex")}`;
  const admin = await openDatabase({ kind: "pg", url: serverUrl, poolSize: 1 });
  await admin.db.execute(sql.raw(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const open = async (): Promise<TestDatabase> => {
    const handle = await openDatabase({ kind: "pg", url: url.toString(), poolSize: 20 });
    await prepare(handle);
    return {
      ...handle,
      box,
      location: { kind: "pg", url: url.toString() },
      drop: async () => {
        await handle.close();
        await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
        await admin.close();
      },
      reopen: async () => {
        await handle.close();
        return open();
      },
    };
  };
  return open();
}
