import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Writes one bench run's raw report to its own file, docs/benchmarks/<date>-<hhmm>-<bench>.md,
 * so docs/BENCHMARKS.md stays a page to read; the report's headings move up two levels to head
 * a file of their own. Returns the file's path relative to the repository.
 */
export function recordRun(bench: string, report: string): string {
  const stamp = new Date().toISOString().slice(0, 16).replace("T", "-").replace(":", "");
  const file = path.join(root, "docs", "benchmarks", `${stamp}-${bench}.md`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${report.trim().replace(/^##(#+) /gm, "$1 ")}\n`);
  return path.relative(root, file);
}
