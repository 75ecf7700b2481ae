// Builds the Next.js app when there is no production build yet, or when a source file changed
// after the last build, so `npm ci && npm start` works on a fresh clone and never serves stale code.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const buildId = path.join(root, ".next", "BUILD_ID");
const SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "server",
  "next.config.mjs",
  "postcss.config.mjs",
  "package-lock.json",
];

function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

let builtAt = 0;
try {
  builtAt = fs.statSync(buildId).mtimeMs;
} catch {}
const changedAt = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))));

if (builtAt === 0 || changedAt > builtAt) {
  console.log(
    builtAt === 0
      ? "No production build yet: building Kassa…"
      : "Sources changed since the last build: rebuilding…",
  );
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"],
    {
      cwd: root,
      stdio: "inherit",
      // A first build writes no Turbopack cache (next.config.mjs): nothing would read it.
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        ...(builtAt === 0 && { KASSA_BUILD_CACHE: "off" }),
      },
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
