import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it, onTestFinished } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");

/**
 * A tiny source tree with the repository's own dependency-cruiser configuration, its tsconfig.json for the
 * `@/` alias, and its node_modules (Babel's presets, and Next.js for the engine-not-next rule).
 */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-import-rules-"));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const name of [".dependency-cruiser.cjs", ".dependency-cruiser.babel.json", "tsconfig.json"])
    fs.copyFileSync(path.join(repo, name), path.join(root, name));
  fs.symlinkSync(path.join(repo, "node_modules"), path.join(root, "node_modules"));
  fs.writeFileSync(path.join(root, "package.json"), '{ "name": "fixture", "type": "module" }\n');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), `${text}\n`);
  }
  return root;
}

/** The rules of `npm run lint:deps` on that tree: each finding as "file rule". */
function lintDeps(root: string): { status: number | null; findings: string[] } {
  const result = spawnSync(
    path.join(repo, "node_modules/.bin/depcruise"),
    ["--config", ".dependency-cruiser.cjs", "{app,components,lib}/**/*.{ts,tsx}"],
    { cwd: root, encoding: "utf8" },
  );
  // Colours off whatever the environment asks (FORCE_COLOR): the findings are matched as plain text.
  const output = stripVTControlCharacters(result.stdout + result.stderr);
  const findings = [...output.matchAll(/^\s*error ([\w-]+): (\S+) →/gm)].map(
    ([, rule, file]) => `${file} ${rule}`,
  );
  return { status: result.status, findings: [...new Set(findings)].sort() };
}

describe("import rules (.dependency-cruiser.cjs)", () => {
  it("reports a cycle and imports across the layers, and lets a cycle of types alone pass", () => {
    const root = tree({
      "lib/a.ts": 'import { b } from "./b";\nexport const a = () => b;',
      "lib/b.ts": 'import { c } from "@/lib/c";\nexport const b = c;',
      "lib/c.ts": 'import { a } from "./a";\nexport const c = () => a;',
      "lib/types-one.ts": 'import type { Two } from "./types-two";\nexport type One = { two?: Two };',
      "lib/types-two.ts": 'import type { One } from "./types-one";\nexport type Two = { one?: One };',
      "lib/route.ts": 'import { NextResponse } from "next/server";\nexport const r = NextResponse;',
      "lib/page.ts": 'import { Page } from "@/app/page";\nexport const p = Page;',
      "lib/draw.ts": 'import { Widget } from "../components/widget";\nexport const d = Widget;',
      "app/page.tsx": "export const Page = () => <main />;",
      "components/widget.tsx": [
        'import { getDb } from "@/lib/db/client";',
        'import type { Row } from "@/lib/rows";',
        'import { formatAmount } from "@/lib/money";',
        "export const Widget = () => <p>{[getDb, formatAmount].length}</p>;",
        "export type Shown = Row;",
      ].join("\n"),
      "lib/db/client.ts": "export const getDb = () => 1;",
      "lib/rows.ts": "export type Row = { id: number };",
      "lib/money.ts": "export const formatAmount = () => 1;",
    });
    const { status, findings } = lintDeps(root);
    expect(findings).toEqual([
      "components/widget.tsx components-not-engine",
      "lib/a.ts no-circular",
      "lib/draw.ts engine-not-components",
      "lib/page.ts engine-not-app",
      "lib/route.ts engine-not-next",
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
