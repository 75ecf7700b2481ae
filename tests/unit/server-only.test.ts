import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { importChain, serverOnlyPlan } from "../../scripts/module-graph.mjs";

const repo = path.resolve(import.meta.dirname, "../..");
const relative = (root: string, files: Iterable<string>) =>
  [...files].map((file) => path.relative(root, file)).sort();

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-graph-"));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe("server-only boundaries", () => {
  it("finds server modules without the marker and client components that import a marked module", () => {
    const root = tree({
      "components/widget.tsx": [
        '"use client";',
        'import { shared } from "@/lib/shared";',
        'import type { Row } from "@/lib/types-only";',
        'import { type Settings } from "@/lib/inline-types";',
        'import { secret } from "../lib/marked";',
        "export const Widget = () => shared + secret;",
      ].join("\n"),
      "lib/shared.ts": 'import { digits } from "./digits";\nexport const shared = digits;',
      "lib/digits.ts": "export const digits = 8;",
      "lib/marked.ts": 'import "server-only";\n\nexport const secret = "s";',
      "lib/types-only.ts": "export type Row = { id: number };",
      "lib/inline-types.ts": "export type Settings = { on: boolean };",
      "lib/db/open.ts": 'import "server-only";\nimport { table } from "./schema";\nexport const db = table;',
      "lib/db/schema.ts": 'import { digits } from "@/lib/digits";\nexport const table = digits;',
      "lib/jobs/run.ts": 'export { db } from "@/lib/db/open";',
      "drizzle.config.ts": 'export default { schema: "./lib/db/schema.ts" };',
    });
    const plan = serverOnlyPlan(root);

    // Reached only through type imports, a module is still server code; drizzle-kit's schema is not.
    expect(relative(root, plan.serverModules)).toEqual([
      "lib/db/open.ts",
      "lib/inline-types.ts",
      "lib/jobs/run.ts",
      "lib/types-only.ts",
    ]);
    expect(relative(root, plan.missingMarker)).toEqual([
      "lib/inline-types.ts",
      "lib/jobs/run.ts",
      "lib/types-only.ts",
    ]);
    expect(relative(root, plan.serverCodeInClient)).toEqual(["lib/marked.ts"]);
    expect(importChain(root, plan.clientReachable, path.join(root, "lib/marked.ts"))).toBe(
      "components/widget.tsx -> lib/marked.ts",
    );
  });

  it("holds for Kassa: every server module of lib/ is marked and no client component reaches one", () => {
    const plan = serverOnlyPlan(repo);
    // The walk sees the real tree: the database client is server code, money formatting is shared.
    expect(plan.serverModules).toContain(path.join(repo, "lib/db/client.ts"));
    expect(plan.clientReachable.has(path.join(repo, "lib/money.ts"))).toBe(true);

    // Fix with `node scripts/add-server-only.mjs`.
    expect(relative(repo, plan.missingMarker)).toEqual([]);
    expect(plan.serverCodeInClient.map((file) => importChain(repo, plan.clientReachable, file))).toEqual([]);
  });
});
