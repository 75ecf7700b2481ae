import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");

/**
 * A tiny source tree with the repository's own biome.json, and its tsconfig.json for the `@/` alias
 * (Biome reads it beside a package.json).
 */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-import-rules-"));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const name of ["biome.json", "tsconfig.json"])
    fs.copyFileSync(path.join(repo, name), path.join(root, name));
  fs.writeFileSync(path.join(root, "package.json"), '{ "name": "fixture", "type": "module" }\n');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), `${text}\n`);
  }
  return root;
}

/** `npm run lint:deps` on that tree: each finding as "file rule". */
function lintDeps(root: string): { status: number | null; findings: string[] } {
  const script = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")).scripts["lint:deps"];
  const args = script.replace(/^biome /, "").split(" ");
  const result = spawnSync(path.join(repo, "node_modules/.bin/biome"), [...args, "--vcs-enabled=false"], {
    cwd: root,
    encoding: "utf8",
  });
  const output = result.stdout + result.stderr;
  const findings = [...output.matchAll(/^(\S+?):\d+:\d+ lint\/\w+\/(\w+)/gm)].map(
    ([, file, rule]) => `${file} ${rule}`,
  );
  return { status: result.status, findings: [...new Set(findings)].sort() };
}

describe("import rules (biome.json)", () => {
  it("reports a cycle, type-only imports included, and imports across the layers", () => {
    const root = tree({
      "lib/a.ts": 'import { b } from "./b";\nexport const a = () => b;',
      "lib/b.ts": 'import type { A } from "@/lib/c";\nexport const b = 1;\nexport type B = A;',
      "lib/c.ts": 'import { a } from "./a";\nexport type A = typeof a;',
      "lib/route.ts": 'import { NextResponse } from "next/server";\nexport const r = NextResponse;',
      "lib/page.ts": 'import { Page } from "@/app/page";\nexport const p = Page;',
      "lib/draw.ts": 'import { Widget } from "../components/widget";\nexport const d = Widget;',
      "app/page.tsx": "export const Page = 1;",
      "components/widget.tsx": [
        'import { getDb } from "@/lib/db/client";',
        'import type { Row } from "@/lib/rows";',
        'import { formatAmount } from "@/lib/money";',
        "export const Widget = [getDb, formatAmount];",
        "export type Shown = Row;",
      ].join("\n"),
      "lib/db/client.ts": "export const getDb = () => 1;",
      "lib/rows.ts": "export type Row = { id: number };",
      "lib/money.ts": "export const formatAmount = () => 1;",
    });
    const { status, findings } = lintDeps(root);
    expect(findings).toEqual([
      "components/widget.tsx noRestrictedImports",
      "lib/a.ts noImportCycles",
      "lib/b.ts noImportCycles",
      "lib/c.ts noImportCycles",
      "lib/draw.ts noRestrictedImports",
      "lib/page.ts noRestrictedImports",
      "lib/route.ts noRestrictedImports",
    ]);
    expect(status).not.toBe(0);
  });

  it("passes a tree that keeps the rules", () => {
    const root = tree({
      "lib/a.ts": 'import { b } from "./b";\nexport const a = () => b;',
      "lib/b.ts": "export const b = 1;",
      "components/widget.tsx": 'import type { Balance } from "@/lib/types";\nexport type Shown = Balance;',
      "lib/types.ts": "export type Balance = number;",
    });
    expect(lintDeps(root)).toEqual({ status: 0, findings: [] });
  });
});
