import "server-only";

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { secureDataDir } from "./secure-data-dir";

/**
 * PGlite does not lock its directory, and two processes writing one directory lose acknowledged
 * writes (DESIGN.md section 9). The process that opens the embedded database holds this lock
 * file; a second one refuses to start. The running server also writes its port and a one-time
 * token here (owner-only permissions), so the ops CLI can send it commands instead of opening
 * the directory a second time.
 */
export type LockInfo = {
  pid: number;
  startedAt: string;
  token: string;
  port?: number;
  role: "server" | "cli" | "worker";
};

export class DataDirLockedError extends Error {
  constructor(
    readonly holder: LockInfo,
    dataDir: string,
  ) {
    super(
      `Another Kassa process (pid ${holder.pid}, ${holder.role}) is using the embedded database in ${dataDir}. ` +
        "Only one process may open it: stop that process, use a different KASSA_DATA_DIR, " +
        "or run every process against PostgreSQL with DATABASE_URL.",
    );
    this.name = "DataDirLockedError";
  }
}

const LOCK_NAME = "kassa.lock";

export function lockPath(dataDir: string): string {
  return path.join(dataDir, LOCK_NAME);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readLock(file: string): LockInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo;
  } catch {
    return undefined;
  }
}

/** The lock's holder if a live process holds it, else undefined. */
export function readLiveLock(dataDir: string): LockInfo | undefined {
  const info = readLock(lockPath(dataDir));
  return info && info.pid !== process.pid && isAlive(info.pid) ? info : undefined;
}

export type DataDirLock = {
  info: LockInfo;
  update: (patch: Partial<LockInfo>) => void;
  release: () => void;
};

export function acquireDataDirLock(dataDir: string, role: LockInfo["role"]): DataDirLock {
  secureDataDir(dataDir);
  const file = lockPath(dataDir);
  const info: LockInfo = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    token: randomBytes(24).toString("base64url"),
    role,
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: "wx", mode: 0o600 });
      const release = () => {
        if (readLock(file)?.token === info.token) fs.rmSync(file, { force: true });
      };
      process.once("exit", release);
      return {
        info,
        update: (patch) => {
          Object.assign(info, patch);
          const temp = `${file}.${process.pid}.tmp`;
          fs.writeFileSync(temp, JSON.stringify(info), { mode: 0o600 });
          fs.renameSync(temp, file);
        },
        release: () => {
          process.removeListener("exit", release);
          release();
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readLock(file);
    if (holder && holder.pid !== process.pid && isAlive(holder.pid))
      throw new DataDirLockedError(holder, dataDir);
    // Stale (its process died, for example by SIGKILL). Rename is atomic: of two processes racing
    // to take over, one renames it away and the other's rename fails, then both retry "wx".
    try {
      fs.renameSync(file, `${file}.stale-${process.pid}`);
      fs.rmSync(`${file}.stale-${process.pid}`, { force: true });
    } catch {
      // someone else took it over first; try again
    }
  }
  const holder = readLock(file);
  throw holder ? new DataDirLockedError(holder, dataDir) : new Error(`could not lock ${dataDir}`);
}
