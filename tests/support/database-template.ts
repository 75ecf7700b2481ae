import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { TestProject } from "vitest/node";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { seedRates } from "@/lib/rates/rates";

/**
 * Vitest's global setup: one migrated, seeded database per run, which every test file's
 * `createTestDatabase()` (tests/support/database.ts) copies instead of migrating its own. Migrating
 * a fresh PGlite cost 4.5 to 7 s a file (initdb in WebAssembly, then 38 migrations), most of the
 * PGlite step's time; loading a dump of one costs about half a second. On PostgreSQL a copy is `create
 * database … template`. The template is made by the same migrations on every run, so it is never
 * stale; tests/integration/migrations.test.ts still migrates from empty.
 */
export async function prepareDatabase(handle: DatabaseHandle): Promise<void> {
  await runMigrations(handle);
  await syncCurrencies(handle.db);
  await seedRates(handle.db);
}

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding a PGlite dump (tar) of the migrated database, when the run is on PGlite. */
    pgliteTemplate: string | undefined;
    /** The name of the migrated template database on KASSA_TEST_DATABASE_URL's server. */
    pgTemplate: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  const runTemp = takeRunTempDir();
  const dropTemplate = await provideTemplate(project);
  return async () => {
    await dropTemplate();
    runTemp.remove();
  };
}

/**
 * Everything the run's files write under the system's temporary directory (data directories,
 * denylists, lock files, nodes' data) goes into one directory of the run, removed when the run ends:
 * the test processes and the nodes they start inherit TMPDIR, which os.tmpdir() reads.
 */
function takeRunTempDir() {
  const previous = process.env.TMPDIR;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-tests-"));
  process.env.TMPDIR = dir;
  return {
    remove: () => {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function provideTemplate(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.KASSA_TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ kind: "pglite" });
    await prepareDatabase(handle);
    if (handle.driver.kind !== "pglite") throw new Error("expected PGlite");
    // The cluster's template0 and template1 are a third of the dump (15 of 44 MB) and no test file
    // creates a database on PGlite: without them a file loads its copy in 0.55 s of CPU, not 0.95.
    for (const template of ["template0", "template1"]) {
      await handle.driver.client.query(`alter database ${template} is_template false`);
      await handle.driver.client.query(`drop database ${template}`);
    }
    await handle.driver.client.query("checkpoint");
    const dump = await handle.driver.client.dumpDataDir("none");
    await handle.close();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-template-"));
    const file = path.join(dir, "pgdata.tar");
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide("pgliteTemplate", file);
    project.provide("pgTemplate", undefined);
    return async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const name = `kassa_template_${randomBytes(6).toString("hex")}`;
  const admin = await openDatabase({ kind: "pg", url: serverUrl, poolSize: 1 });
  await admin.db.execute(sql.raw(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // Two connections: runMigrations holds one for its advisory lock while it migrates on another.
  const handle = await openDatabase({ kind: "pg", url: url.toString(), poolSize: 2 });
  await prepareDatabase(handle);
  // No session may stay connected to a template while it is copied.
  await handle.close();
  project.provide("pgliteTemplate", undefined);
  project.provide("pgTemplate", name);
  return async () => {
    await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
    await admin.close();
  };
}
