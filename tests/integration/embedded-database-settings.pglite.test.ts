import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "@/lib/db/client";

describe("the embedded database", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-embedded-settings-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("runs with a 32 MB buffer cache instead of PGlite's 128 MB, on a new directory and reopened", async () => {
    for (const attempt of ["new", "reopened"]) {
      const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dir, "pgdata") });
      try {
        const [row] = await queryRows<{ shared_buffers: string }>(handle.db, sql`show shared_buffers`);
        expect(row?.shared_buffers, attempt).toBe("32MB");
      } finally {
        await handle.close();
      }
    }
  });
});
