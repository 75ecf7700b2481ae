import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { inject } from "vitest";
import { SecretBox } from "@/lib/crypto/secret-box";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { prepareDatabase } from "./database-template";

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

let pgliteTemplate: Blob | undefined;
/** The run's migrated PGlite database (tests/support/database-template.ts), read once per worker. */
function loadPgliteTemplate(): Blob {
  pgliteTemplate ??= new Blob([fs.readFileSync(inject("pgliteTemplate") ?? missingTemplate())]);
  return pgliteTemplate;
}

function missingTemplate(): never {
  throw new Error("no template database: run tests through vitest (tests/support/database-template.ts)");
}

export async function createTestDatabase(options: { isPersistent?: boolean } = {}): Promise<TestDatabase> {
  const box = new SecretBox(randomBytes(32));
  const serverUrl = process.env.KASSA_TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = options.isPersistent ? fs.mkdtempSync(path.join(os.tmpdir(), "kassa-test-")) : undefined;
    let isFirstOpen = true;
    const open = async (): Promise<TestDatabase> => {
      // The first open copies the run's template; a reopen finds the data and migrates it again, as a
      // restarted server does.
      const handle = await openDatabase({
        kind: "pglite",
        dataDir,
        loadDataDir: isFirstOpen ? loadPgliteTemplate() : undefined,
      });
      if (!isFirstOpen) await prepareDatabase(handle);
      isFirstOpen = false;
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
  await admin.db.execute(
    sql.raw(`create database ${name} template ${inject("pgTemplate") ?? missingTemplate()}`),
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let isFirstOpen = true;
  const open = async (): Promise<TestDatabase> => {
    const handle = await openDatabase({ kind: "pg", url: url.toString(), poolSize: 20 });
    if (!isFirstOpen) await prepareDatabase(handle);
    isFirstOpen = false;
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
