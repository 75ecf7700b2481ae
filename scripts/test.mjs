// `npm test`: the whole suite, in the order that fails fastest.
//   1. lint (Biome) and typecheck (tsc)
//   2. unit and integration tests on PGlite (in memory)
//   3. the integration and chain tests on PostgreSQL: KASSA_TEST_DATABASE_URL if set, else a throwaway server
//      started here from the installed PostgreSQL binaries
//   4. the production build
//   5. system tests (real processes: SIGKILLs, fuzzing, two servers and two workers) on PGlite and PostgreSQL
//   6. Playwright (api and ui projects)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { hasPostgres, startPostgres } from "./postgres.mjs";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const reports = path.join(root, ".test-reports");
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });
const vitestReport = (name) => [
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(reports, name)}`,
];

function step(title, command, args, env = {}) {
  console.log(`\n━━ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n✗ ${title} failed`);
    cleanup();
    process.exit(result.status ?? 1);
  }
}

let postgres;
function cleanup() {
  postgres?.stop();
  postgres = undefined;
}

step("lint", bin("biome"), ["check", "."]);
step("typecheck", bin("tsc"), ["--noEmit"]);
step("schema drift", process.execPath, [path.join(root, "scripts", "check-schema-drift.mjs")]);
step("unit and integration tests on PGlite", bin("vitest"), ["run", ...vitestReport("vitest-pglite.json")], {
  KASSA_TEST_DATABASE_URL: "",
});

let url = process.env.KASSA_TEST_DATABASE_URL;
if (!url) {
  if (!hasPostgres()) {
    console.error(
      "\n✗ No PostgreSQL for the second run: set KASSA_TEST_DATABASE_URL to a server (the tests create and drop\n" +
        "  their own databases on it), or install the postgresql package so a throwaway server can be started.",
    );
    process.exit(1);
  }
  postgres = await startPostgres();
  url = postgres.url;
}
try {
  step(
    "integration tests on PostgreSQL",
    bin("vitest"),
    ["run", "tests/integration", "tests/chain", ...vitestReport("vitest-postgres.json")],
    {
      KASSA_TEST_DATABASE_URL: url,
    },
  );
  step("production build", process.execPath, [path.join(root, "scripts", "ensure-build.mjs")]);
  const system = ["run", "--config", "vitest.system.config.ts"];
  step(
    "system tests on PGlite (SIGKILL, fuzzing)",
    bin("vitest"),
    [...system, "--exclude", "**/*.pg.test.ts", ...vitestReport("system-pglite.json")],
    {
      KASSA_TEST_DATABASE_URL: "",
    },
  );
  step(
    "system tests on PostgreSQL (SIGKILL, fuzzing, two servers and two workers)",
    bin("vitest"),
    [...system, ...vitestReport("system-postgres.json")],
    {
      KASSA_TEST_DATABASE_URL: url,
    },
  );
} finally {
  cleanup();
}
step("end-to-end tests (Playwright: api, ui)", bin("playwright"), ["test"], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, "playwright.json"),
});

// One plain total for the whole suite (every runner above failed the run already if a test failed).
let passed = 0;
let failed = 0;
for (const name of [
  "vitest-pglite.json",
  "vitest-postgres.json",
  "system-pglite.json",
  "system-postgres.json",
]) {
  const report = JSON.parse(fs.readFileSync(path.join(reports, name), "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}
const playwright = JSON.parse(fs.readFileSync(path.join(reports, "playwright.json"), "utf8")).stats;
passed += playwright.expected + playwright.flaky;
failed += playwright.unexpected;
console.log(`\n${passed} passed, ${failed} failed`);
