// Drizzle snapshots of lib/db/schema, shared by check-schema-drift.mjs and write-schema-snapshot.mjs.
// drizzle-kit generate diffs the schema against the newest drizzle/meta/<NNNN>_snapshot.json; these
// helpers do the same through drizzle-kit's programmatic API, so nothing is written unless asked.
import fs from "node:fs";
import path from "node:path";
import { generateDrizzleJson } from "drizzle-kit/api";
import { tsImport } from "tsx/esm/api";

export const root = path.resolve(import.meta.dirname, "..");
export const migrationsFolder = path.join(root, "drizzle");
const metaFolder = path.join(migrationsFolder, "meta");

export function readJournal() {
  return JSON.parse(fs.readFileSync(path.join(metaFolder, "_journal.json"), "utf8"));
}

export const snapshotPath = (idx) => path.join(metaFolder, `${String(idx).padStart(4, "0")}_snapshot.json`);

/** The snapshots on disk as { idx, file, snapshot }, oldest first (0008 and 0009 have none). */
export function readSnapshots() {
  return fs
    .readdirSync(metaFolder)
    .filter((name) => /^\d{4}_snapshot\.json$/.test(name))
    .sort()
    .map((name) => ({
      idx: Number(name.slice(0, 4)),
      file: path.join(metaFolder, name),
      snapshot: JSON.parse(fs.readFileSync(path.join(metaFolder, name), "utf8")),
    }));
}

/** The schema as drizzle-kit sees it (every export of lib/db/schema), as a snapshot chained to prevId. */
export async function snapshotOfSchema(prevId) {
  const schema = await tsImport(path.join(root, "lib/db/schema/index.ts"), import.meta.url);
  // Through JSON: the generator leaves `undefined` members that a written snapshot does not have.
  return JSON.parse(JSON.stringify(generateDrizzleJson(schema, prevId)));
}

/** What a snapshot describes, without its identity: two snapshots of the same schema compare equal. */
export function contentOf(snapshot) {
  const { id: _id, prevId: _prevId, ...content } = snapshot;
  return content;
}
