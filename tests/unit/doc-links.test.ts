import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, "")
    .replace(/ /g, "-");
}

function anchorsIn(file: string): Set<string> {
  const text = fs.readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
  const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!));
  return new Set(headings);
}

const files = [path.join(root, "README.md"), ...markdownFiles(path.join(root, "docs"))];

describe("relative links in README.md and docs/", () => {
  it("finds the documents to check", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((file) => path.relative(root, file)))("%s: every relative link resolves", (name) => {
    const file = path.join(root, name);
    const broken: string[] = [];
    for (const [, target] of prose(fs.readFileSync(file, "utf8")).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [pathPart, anchor] = target!.split("#");
      const resolved = pathPart ? path.resolve(path.dirname(file), pathPart) : file;
      if (!fs.existsSync(resolved)) broken.push(`${target}: no such file`);
      else if (anchor && resolved.endsWith(".md") && !anchorsIn(resolved).has(anchor))
        broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
