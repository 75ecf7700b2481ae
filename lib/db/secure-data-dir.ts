import "server-only";

import fs from "node:fs";
import path from "node:path";

/**
 * Makes the data directory the owner's alone before anything is written to it: created 0700, or
 * tightened to 0700 when it already exists looser (a container volume or systemd's StateDirectory
 * arrive as 0755), and the process umask set to 077 so every file created from then on comes out
 * 0600 (PGlite's initial files are the exception: see makeTreeOwnerOnly). A directory this user cannot tighten refuses the start, as PostgreSQL
 * refuses a group-readable data directory, instead of leaving the database writable by others.
 */
export function secureDataDir(dataDir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if ((fs.statSync(dataDir).mode & 0o077) === 0) return;
  try {
    fs.chmodSync(dataDir, 0o700);
  } catch (error) {
    throw new Error(
      `The data directory ${dataDir} is readable by other users and could not be made private ` +
        `(${(error as NodeJS.ErrnoException).code}): run Kassa as its owner, or chmod 700 it.`,
    );
  }
}

/**
 * Takes group and other permissions off everything under `dir`. PGlite unpacks its initial
 * database with modes of its own (0666 and 0644, whatever the umask), so the tree is tightened
 * after it opens; files it creates later follow the umask secureDataDir set.
 */
export function makeTreeOwnerOnly(dir: string): void {
  const visit = (file: string) => {
    const stat = fs.lstatSync(file);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) fs.chmodSync(file, stat.mode & 0o700);
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
  };
  visit(dir);
}
