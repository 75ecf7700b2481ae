import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { loadMasterKey, MasterKeyError } from "@/lib/crypto/master-key";
import { openDatabase } from "@/lib/db/client";
import { acquireDataDirLock } from "@/lib/db/data-dir-lock";
import { prepareEmbeddedCluster } from "@/lib/db/migrate";

const env = (vars: Record<string, string>) => ({ NODE_ENV: "test", ...vars }) as NodeJS.ProcessEnv;

/** Every path under `dir` (itself included) that a group or other user may read, write or enter. */
function looseModes(dir: string): string[] {
  const loose: string[] = [];
  const visit = (file: string) => {
    const stat = fs.lstatSync(file);
    if (!stat.isSymbolicLink() && (stat.mode & 0o077) !== 0)
      loose.push(`${path.relative(dir, file) || "."} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
  };
  visit(dir);
  return loose;
}

describe("the embedded data directory's files", () => {
  let dataDir: string;
  let umask: number;
  beforeAll(() => {
    umask = process.umask(0o022);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-files-"));
    fs.chmodSync(dataDir, 0o755);
  });
  afterAll(() => {
    process.umask(umask);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("are the owner's alone when the directory arrived 0755: directory 0700, no PGlite file open to others", async () => {
    // As a server's boot makes them (lib/host/boot.ts): the second from the copy the first may have left.
    const second = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-files-"));
    fs.chmodSync(second, 0o755);
    try {
      for (const dir of [dataDir, second]) {
        const lock = acquireDataDirLock(dir, "server");
        expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe("700");
        await prepareEmbeddedCluster(path.join(dir, "pgdata"));
        const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dir, "pgdata") });
        await handle.close();
        lock.release();
        expect(fs.existsSync(path.join(dir, "pgdata", "PG_VERSION"))).toBe(true);
        expect(looseModes(dir)).toEqual([]);
      }
    } finally {
      fs.rmSync(second, { recursive: true, force: true });
    }
  });

  it("keep no new master key after a start refused because the key of an existing database is missing", () => {
    const config = loadConfig(env({ KASSA_DATA_DIR: dataDir }));
    expect(fs.existsSync(path.join(dataDir, "master.key"))).toBe(false);
    expect(() => loadMasterKey(config)).toThrow(MasterKeyError);
    expect(() => loadMasterKey(config)).toThrow(/already exists/);
    expect(fs.existsSync(path.join(dataDir, "master.key"))).toBe(false);
  });

  it("generate a master key, owner-only, for a new database", () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-files-new-"));
    try {
      const key = loadMasterKey(loadConfig(env({ KASSA_DATA_DIR: fresh })));
      expect(key).toHaveLength(32);
      expect((fs.statSync(path.join(fresh, "master.key")).mode & 0o777).toString(8)).toBe("600");
      expect(loadMasterKey(loadConfig(env({ KASSA_DATA_DIR: fresh })))).toEqual(key);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});
