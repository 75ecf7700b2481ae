import "server-only";

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Makes a new, empty PGlite cluster in `dataDir` and closes it. The first initdb of an installed PGlite
 * version keeps its dump in node_modules/.cache/kassa, and later clusters load it (1.4 s against 6.6 s of
 * CPU: docs/BENCHMARKS.md). Without a writable node_modules in the working directory, every cluster
 * runs initdb.
 */
export async function createPgliteCluster(PGliteClass: typeof PGlite, dataDir: string): Promise<void> {
  const copy = clusterCopyFile();
  if (copy && fs.existsSync(copy)) {
    const dump = new Blob([fs.readFileSync(copy)]);
    await (await PGliteClass.create(dataDir, { loadDataDir: dump })).close();
    return;
  }
  const client = await PGliteClass.create(dataDir);
  try {
    if (copy) await keepCopy(client, copy);
  } finally {
    await client.close();
  }
}

/** Where the copy of a new cluster of the installed PGlite version is kept, or undefined if nowhere. */
function clusterCopyFile(): string | undefined {
  const modules = path.join(process.cwd(), "node_modules");
  try {
    const { version } = JSON.parse(
      fs.readFileSync(path.join(modules, "@electric-sql", "pglite", "package.json"), "utf8"),
    ) as { version: string };
    return path.join(modules, ".cache", "kassa", `pglite-${version}-new-cluster.tar`);
  } catch {
    return undefined;
  }
}

/** Writes the copy whole or not at all: to a file of its own, then renamed over the final name. */
async function keepCopy(client: PGlite, file: string): Promise<void> {
  try {
    const dump = Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
    fs.writeFileSync(partial, dump, { mode: 0o600 });
    fs.renameSync(partial, file);
  } catch (error) {
    // Only a later start's speed depends on the copy.
    console.warn(`[db] could not keep a copy of the new database cluster: ${(error as Error).message}`);
  }
}
