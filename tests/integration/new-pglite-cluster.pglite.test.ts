import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgliteCluster } from "@/lib/db/new-pglite-cluster";

/** Every file under `dir`, by its path inside it. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .sort();
}

describe("a new embedded database cluster", () => {
  // A project directory of its own: the copy is kept under its node_modules/.cache.
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-cluster-copy-"));
  const copy = path.join(project, "node_modules", ".cache", "kassa", "pglite-0.0.0-test-new-cluster.tar");
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
    await createPgliteCluster(PGlite, first);
    expect(fs.existsSync(copy)).toBe(true);
    expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(copy))).toEqual([path.basename(copy)]);

    const second = path.join(project, "second");
    const copyWritten = fs.statSync(copy).mtimeMs;
    await createPgliteCluster(PGlite, second);
    expect(fs.statSync(copy).mtimeMs).toBe(copyWritten);
    expect(filesUnder(second)).toEqual(filesUnder(first));

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
});
