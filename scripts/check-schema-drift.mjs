// `npm run db:check` (and a step of `npm test`): fails when `drizzle-kit generate` would write a migration,
// that is when lib/db/schema no longer matches the newest drizzle/meta snapshot. Writes nothing.
import { isDeepStrictEqual } from "node:util";
import { generateMigration } from "drizzle-kit/api";
import { contentOf, readJournal, readSnapshots, snapshotOfSchema } from "./schema-snapshots.mjs";

const COLLECTIONS = ["schemas", "enums", "sequences", "roles", "policies", "views", "tables"];

const added = (before = {}, after = {}) => Object.keys(after).filter((key) => !(key in before));

/**
 * Where drizzle-kit generate would stop and ask "created or renamed?": something added and something
 * removed in the same collection (or the same table's columns). generateMigration would ask too, and
 * a prompt in CI waits forever, so such drift is reported from the snapshots alone.
 */
function renameQuestions(before, after) {
  const questions = [];
  const ask = (what, b, a) => {
    const created = added(b, a);
    const deleted = added(a, b);
    if (created.length > 0 && deleted.length > 0)
      questions.push(`${what}: ${deleted.join(", ")} removed and ${created.join(", ")} added`);
  };
  for (const collection of COLLECTIONS) ask(collection, before[collection], after[collection]);
  for (const [name, table] of Object.entries(after.tables ?? {})) {
    const old = before.tables?.[name];
    if (!old) continue;
    ask(`columns of ${name}`, old.columns, table.columns);
    ask(`policies of ${name}`, old.policies, table.policies);
  }
  return questions;
}

const snapshots = readSnapshots();
const latest = snapshots.at(-1);
if (!latest) {
  console.error("✗ schema drift: drizzle/meta holds no snapshot to compare lib/db/schema with");
  process.exit(1);
}
const current = await snapshotOfSchema(latest.snapshot.id);
const lastEntry = readJournal().entries.at(-1);
const name = `drizzle/meta/${latest.file.split("/").at(-1)}`;
const remedy =
  lastEntry && lastEntry.idx > latest.idx
    ? `Migration ${lastEntry.tag} has no snapshot yet: if its SQL makes this change, record it with ` +
      "`npm run db:snapshot`; otherwise write the migration (`npm run db:generate`, or by hand with " +
      "`npm run db:snapshot` after it)."
    : "Write the migration that makes this change (`npm run db:generate`, or SQL by hand in " +
      "drizzle/<NNNN>_<name>.sql with its _journal.json entry, then `npm run db:snapshot`), or undo the " +
      "schema change.";

if (isDeepStrictEqual(contentOf(latest.snapshot), contentOf(current))) {
  console.log(`✓ no schema drift: lib/db/schema matches ${name}`);
  process.exit(0);
}
const questions = renameQuestions(latest.snapshot, current);
if (questions.length > 0) {
  console.error(
    `✗ schema drift: lib/db/schema differs from ${name}, and drizzle-kit would ask about renames:`,
  );
  for (const question of questions) console.error(`  - ${question}`);
  console.error(remedy);
  process.exit(1);
}
const statements = await generateMigration(latest.snapshot, current);
if (statements.length === 0) {
  // The snapshots differ only where drizzle-kit generate finds nothing to migrate.
  console.log(`✓ no schema drift: lib/db/schema needs no migration against ${name}`);
  process.exit(0);
}
console.error(
  `✗ schema drift: drizzle-kit generate would write a migration from lib/db/schema against ${name}:`,
);
for (const statement of statements) console.error(`  ${statement.replaceAll("\n", "\n  ")}`);
console.error(remedy);
process.exit(1);
