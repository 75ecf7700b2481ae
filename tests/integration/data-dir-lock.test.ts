import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError, lockPath, readLiveLock } from "@/lib/db/data-dir-lock";

describe("embedded data directory lock", () => {
  const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), "kassa-lock-"));

  it("refuses a second holder while the first is alive, with a clear message", () => {
    const dataDir = dir();
    // The test runner's parent process is alive for the whole test: it stands in for a running server.
    fs.writeFileSync(
      lockPath(dataDir),
      JSON.stringify({ pid: process.ppid, token: "t", role: "server", startedAt: "" }),
    );
    expect(() => acquireDataDirLock(dataDir, "cli")).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dataDir, "cli")).toThrow(/Only one process may open it/);
    expect(readLiveLock(dataDir)?.pid).toBe(process.ppid);
  });

  it("takes over a lock left by a process that died", () => {
    const dataDir = dir();
    const child = spawnSync(process.execPath, ["-p", "process.pid"], { encoding: "utf8" });
    const deadPid = Number(child.stdout.trim());
    fs.writeFileSync(
      lockPath(dataDir),
      JSON.stringify({ pid: deadPid, token: "old", role: "server", startedAt: "" }),
    );
    expect(readLiveLock(dataDir)).toBeUndefined();
    const lock = acquireDataDirLock(dataDir, "server");
    expect(JSON.parse(fs.readFileSync(lockPath(dataDir), "utf8")).pid).toBe(process.pid);
    lock.update({ port: 1234 });
    expect(JSON.parse(fs.readFileSync(lockPath(dataDir), "utf8")).port).toBe(1234);
    expect((fs.statSync(lockPath(dataDir)).mode & 0o777).toString(8)).toBe("600");
    lock.release();
    expect(fs.existsSync(lockPath(dataDir))).toBe(false);
  });
});
