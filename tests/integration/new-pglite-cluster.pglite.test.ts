import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, prepareEmbeddedCluster } from "@/lib/db/migrate";
import { createMigratedPgliteCluster, createPgliteCluster } from "@/lib/db/new-pglite-cluster";

/** Every file under `dir`, by its path inside it. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .sort();
}

/** Every path under `dir` that a group or other user may read, write or enter. */
function looseModes(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter(
    (name) => (fs.statSync(path.join(dir, name)).mode & 0o077) !== 0,
  );
}

describe("a new embedded database cluster", () => {
  // A project directory of its own: the copy is kept under its node_modules/.cache.
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-cluster-copy-"));
  const copy = path.join(project, "node_modules", ".cache", "kassa", "pglite-0.0.0-test-new-cluster");
  const startDir = process.cwd();

  beforeAll(() => {
    const pglite = path.join(project, "node_modules", "@electric-sql", "pglite");
    fs.mkdirSync(pglite, { recursive: true });
    fs.writeFileSync(path.join(pglite, "package.json"), JSON.stringify({ version: "0.0.0-test" }));
    process.chdir(project);
  });
  afterAll(() => {
    process.chdir(startDir);
    fs.rmSync(project, { recursive: true, force: true });
  });

  it("is made by initdb once, then from the copy it left: the same files, a database that answers", async () => {
    const first = path.join(project, "first");
    // A copy an earlier version kept, PGlite's dump of a new cluster, is replaced.
    const oldDump = `${copy}.tar`;
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.writeFileSync(oldDump, "a dump");
    await createPgliteCluster(PGlite, first);
    expect(fs.existsSync(path.join(copy, "PG_VERSION"))).toBe(true);
    expect(filesUnder(copy)).toEqual(filesUnder(first));
    expect(looseModes(copy)).toEqual([]);
    expect(fs.readdirSync(path.dirname(copy))).toEqual([path.basename(copy)]);

    const second = path.join(project, "second");
    const copyWritten = fs.statSync(path.join(copy, "PG_VERSION")).mtimeMs;
    await createPgliteCluster(PGlite, second);
    expect(fs.statSync(path.join(copy, "PG_VERSION")).mtimeMs).toBe(copyWritten);
    expect(filesUnder(second)).toEqual(filesUnder(first));
    expect(looseModes(second)).toEqual([]);

    const client = await PGlite.create(second);
    await client.exec("create table t (n int); insert into t values (7)");
    expect((await client.query<{ n: number }>("select n from t")).rows).toEqual([{ n: 7 }]);
    await client.close();
  });

  it("is made by initdb alone where no node_modules is found, keeping no copy", async () => {
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-no-project-"));
    process.chdir(bare);
    try {
      await createPgliteCluster(PGlite, path.join(bare, "db"));
      expect(fs.readdirSync(bare)).toEqual(["db"]);
      expect(fs.existsSync(path.join(bare, "db", "PG_VERSION"))).toBe(true);
    } finally {
      process.chdir(project);
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });

  /** A stand-in migration set: one table, and a count of the times it ran. */
  const marking = () => {
    const runs: string[] = [];
    return {
      runs,
      migrate: async (dir: string) => {
        runs.push(dir);
        const client = await PGlite.create(dir);
        await client.exec("create table marker (n int); insert into marker values (1)");
        await client.close();
      },
    };
  };
  const cacheOf = (fingerprint: string) =>
    path.join(project, "node_modules", ".cache", "kassa", `pglite-0.0.0-test-migrated-${fingerprint}`);

  it("is migrated once per migration set, then copied whole: separate databases, the old set's copy dropped", async () => {
    const setA = marking();
    const first = path.join(project, "migrated-first");
    await createMigratedPgliteCluster(PGlite, first, { fingerprint: "aaaa", migrate: setA.migrate });
    expect(setA.runs).toHaveLength(1);
    expect(setA.runs[0]).not.toBe(first);
    expect(fs.existsSync(path.join(cacheOf("aaaa"), "PG_VERSION"))).toBe(true);
    expect(fs.statSync(cacheOf("aaaa")).mode & 0o077).toBe(0);
    expect(looseModes(cacheOf("aaaa"))).toEqual([]);
    // Nothing is left beside the cluster: it was made under another name and renamed into place.
    expect(fs.readdirSync(project).filter((name) => name.startsWith("migrated-first"))).toEqual([
      "migrated-first",
    ]);

    const second = path.join(project, "migrated-second");
    fs.mkdirSync(second); // an empty directory in the way is replaced
    await createMigratedPgliteCluster(PGlite, second, { fingerprint: "aaaa", migrate: setA.migrate });
    expect(setA.runs).toHaveLength(1);
    expect(filesUnder(second)).toEqual(filesUnder(first));
    const copied = await PGlite.create(second);
    await copied.exec("insert into marker values (2)");
    expect((await copied.query<{ n: number }>("select n from marker order by n")).rows).toEqual([
      { n: 1 },
      { n: 2 },
    ]);
    await copied.close();
    const original = await PGlite.create(first);
    expect((await original.query<{ n: number }>("select n from marker")).rows).toEqual([{ n: 1 }]);
    await original.close();

    const setB = marking();
    await createMigratedPgliteCluster(PGlite, path.join(project, "migrated-third"), {
      fingerprint: "bbbb",
      migrate: setB.migrate,
    });
    expect(setB.runs).toHaveLength(1);
    expect(fs.existsSync(cacheOf("bbbb"))).toBe(true);
    expect(fs.existsSync(cacheOf("aaaa"))).toBe(false);
  });

  it("refuses a data directory that holds files but no database, and leaves them as they were", async () => {
    const occupied = path.join(project, "occupied");
    fs.mkdirSync(occupied);
    fs.writeFileSync(path.join(occupied, "notes.txt"), "mine");
    const set = marking();
    await expect(
      createMigratedPgliteCluster(PGlite, occupied, { fingerprint: "bbbb", migrate: set.migrate }),
    ).rejects.toThrow(`${occupied} holds files but no database (no PG_VERSION)`);
    expect(fs.readdirSync(occupied)).toEqual(["notes.txt"]);
    expect(fs.readdirSync(project).filter((name) => name.startsWith("occupied"))).toEqual(["occupied"]);
  });

  it("gives a new data directory every checked-in migration, the first time and from the copy", async () => {
    const journal = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"),
    );
    const applied = async (dir: string) => {
      const client = await PGlite.create(dir);
      try {
        return (
          await client.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations")
        ).rows[0]!.n;
      } finally {
        await client.close();
      }
    };
    for (const name of ["installation-one", "installation-two"]) {
      const dir = path.join(project, name, "pgdata");
      await prepareEmbeddedCluster(dir);
      expect(await applied(dir)).toBe(journal.entries.length);
    }
    expect(filesUnder(path.join(project, "installation-two"))).toEqual(
      filesUnder(path.join(project, "installation-one")),
    );
  });
});
