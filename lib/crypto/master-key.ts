import "server-only";

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "@/lib/config";
import { secureDataDir } from "@/lib/db/secure-data-dir";

export class MasterKeyError extends Error {}

const FILE_NAME = "master.key";

/**
 * Whether the data directory already holds an embedded database (lib/host/boot.ts opens it in
 * `pgdata`; PG_VERSION is the first file PostgreSQL's initdb writes and never removes).
 */
function hasEmbeddedDatabase(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, "pgdata", "PG_VERSION"));
}

/** Accepts 64 hex characters or the base64 / base64url form of 32 bytes. */
export function decodeMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : Buffer.from(trimmed, "base64");
  if (key.length !== 32) {
    throw new MasterKeyError("KASSA_MASTER_KEY must be 32 bytes, as 64 hex characters or base64");
  }
  return key;
}

/**
 * The master key comes from KASSA_MASTER_KEY. In embedded mode (no DATABASE_URL) it is generated
 * on first run into the data directory, readable by the owner only. With PostgreSQL several
 * processes must share one key, so it has to be given explicitly.
 */
export function loadMasterKey(config: Config): Buffer {
  if (config.masterKey) return decodeMasterKey(config.masterKey);
  if (config.databaseUrl) {
    throw new MasterKeyError(
      "KASSA_MASTER_KEY is required with DATABASE_URL (every instance must share it). " +
        "Generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"",
    );
  }
  const file = path.join(config.dataDir, FILE_NAME);
  secureDataDir(config.dataDir);
  try {
    return decodeMasterKey(fs.readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // A key is generated only for a new database. Beside an existing one it could open none of its
  // secrets: the start would fail anyway, and leave behind a key file that looks like the real one.
  if (hasEmbeddedDatabase(config.dataDir)) {
    throw new MasterKeyError(
      `${file} is missing, but the embedded database in ${config.dataDir} already exists: restore the ` +
        "key file from your backup, or set KASSA_MASTER_KEY to the key it was created with.",
    );
  }
  const key = randomBytes(32);
  // "wx": never overwrite a key another process wrote a moment ago.
  try {
    fs.writeFileSync(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      return decodeMasterKey(fs.readFileSync(file, "utf8"));
    }
    throw error;
  }
}
