// `npm run db:snapshot`: records drizzle/meta/<NNNN>_snapshot.json for the newest _journal.json entry from
// lib/db/schema, chained (prevId) to the snapshot before it. For hand-written SQL migrations, which
// drizzle-kit generate does not snapshot: write the SQL and its journal entry, update lib/db/schema to
// match, then run this, so the next `drizzle-kit generate` (and `npm run db:check`) diffs from there.
// Run again, it keeps the snapshot's id and rewrites its content.
import fs from "node:fs";
import path from "node:path";
import { readJournal, readSnapshots, root, snapshotOfSchema, snapshotPath } from "./schema-snapshots.mjs";

const entry = readJournal().entries.at(-1);
if (!entry) {
  console.error("✗ drizzle/meta/_journal.json has no migration to record a snapshot for");
  process.exit(1);
}
const snapshots = readSnapshots();
const previous = snapshots.filter((s) => s.idx < entry.idx).at(-1);
const existing = snapshots.find((s) => s.idx === entry.idx);
const generated = await snapshotOfSchema(previous?.snapshot.id);
const { id, prevId, ...content } = generated;
// drizzle-kit writes id and prevId first; keep that shape so its own snapshots and ours read alike.
const snapshot = { id: existing?.snapshot.id ?? id, prevId, ...content };
const file = snapshotPath(entry.idx);
fs.writeFileSync(file, JSON.stringify(snapshot, null, 2)); // no final newline, as drizzle-kit writes them
console.log(
  `✓ ${existing ? "rewrote" : "wrote"} ${path.relative(root, file)} for ${entry.tag}` +
    (previous ? ` (after ${path.relative(root, previous.file)})` : ""),
);
