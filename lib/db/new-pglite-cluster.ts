import "server-only";

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { makeTreeOwnerOnly } from "./secure-data-dir";

/**
 * Makes a new cluster in `dataDir` with the migrations applied, `fingerprint` naming the set of them.
 * The first of a migration set is made as before (a new cluster, then `migrate`, which opens it,
 * migrates and closes it) and a copy of it kept under node_modules/.cache/kassa; later ones copy that
 * directory. A server's first start on an empty data directory took 6.2 s (8.3 s of CPU) to create and
 * migrate the embedded database, against 1.7 s (2.0 s of CPU) to copy and open it (docs/BENCHMARKS.md).
 * The cluster is made beside `dataDir` and renamed into place, so a process killed while making it
 * leaves no half-made database behind. Migrations only shape the schema; nothing in a cluster they
 * make belongs to one installation.
 */
export async function createMigratedPgliteCluster(
  PGliteClass: typeof PGlite,
  dataDir: string,
  input: { fingerprint: string; migrate: (dataDir: string) => Promise<void> },
): Promise<void> {
  const copy = cachedCopy(`migrated-${input.fingerprint}`);
  // A directory left empty (by an operator, or a volume mounted there) is replaced; anything else in
  // the way is not a cluster Kassa made, and the start says so instead of writing over it.
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0)
    throw new Error(
      `${dataDir} holds files but no database (no PG_VERSION): move them away, or point ` +
        "KASSA_DATA_DIR at an empty directory.",
    );
  const partial = `${dataDir}.new-${randomBytes(6).toString("hex")}`;
  fs.mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o700 });
  try {
    if (copy && fs.existsSync(path.join(copy, "PG_VERSION"))) {
      fs.cpSync(copy, partial, { recursive: true });
      makeTreeOwnerOnly(partial);
    } else {
      await createPgliteCluster(PGliteClass, partial);
      await input.migrate(partial);
      if (copy) keepDirectoryCopy(partial, copy, "migrated database cluster");
    }
    if (fs.existsSync(dataDir)) fs.rmdirSync(dataDir);
    fs.renameSync(partial, dataDir);
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * Copies a cluster into the cache whole or not at all, then drops the copies it replaces: those of
 * other migration sets, or the dump of a new cluster that earlier versions kept.
 */
function keepDirectoryCopy(cluster: string, copy: string, what: string): void {
  const partial = `${copy}.${randomBytes(6).toString("hex")}.partial`;
  try {
    fs.mkdirSync(path.dirname(copy), { recursive: true, mode: 0o700 });
    fs.cpSync(cluster, partial, { recursive: true });
    makeTreeOwnerOnly(partial);
    fs.renameSync(partial, copy);
    const replaced = copy.includes("-migrated-")
      ? copy.replace(/-migrated-.*$/, "-migrated-")
      : `${copy}.tar`;
    for (const name of fs.readdirSync(path.dirname(copy))) {
      const file = path.join(path.dirname(copy), name);
      if (file.startsWith(replaced) && file !== copy && !name.endsWith(".partial"))
        fs.rmSync(file, { recursive: true, force: true });
    }
  } catch (error) {
    // Another process may have kept the same copy first; only a later start's speed depends on it.
    if (!fs.existsSync(path.join(copy, "PG_VERSION")))
      console.warn(`[db] could not keep a copy of the ${what}: ${(error as Error).message}`);
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * Makes a new, empty PGlite cluster in `dataDir`. The first initdb of an installed PGlite version leaves
 * a copy of its cluster in node_modules/.cache/kassa, and later clusters are a native recursive copy of
 * it: 0.24 s against 6.6 s of CPU for initdb, and 2.9 s for loading PGlite's own dump of it, which writes
 * every file through PGlite's file system (docs/BENCHMARKS.md). Without a writable node_modules in the
 * working directory, every cluster runs initdb.
 */
export async function createPgliteCluster(PGliteClass: typeof PGlite, dataDir: string): Promise<void> {
  const copy = cachedCopy("new-cluster");
  if (copy && fs.existsSync(path.join(copy, "PG_VERSION"))) {
    fs.cpSync(copy, dataDir, { recursive: true });
    makeTreeOwnerOnly(dataDir);
    return;
  }
  await (await PGliteClass.create(dataDir)).close();
  if (copy) keepDirectoryCopy(dataDir, copy, "new database cluster");
}

/**
 * Where a copy named `pglite-<installed PGlite version>-<what>` is kept under the project's
 * node_modules/.cache/kassa, or undefined without a node_modules.
 */
function cachedCopy(what: string): string | undefined {
  const modules = path.join(process.cwd(), "node_modules");
  try {
    const { version } = JSON.parse(
      fs.readFileSync(path.join(modules, "@electric-sql", "pglite", "package.json"), "utf8"),
    ) as { version: string };
    return path.join(modules, ".cache", "kassa", `pglite-${version}-${what}`);
  } catch {
    return undefined;
  }
}
