// `npm test`: the whole suite, in the order that fails fastest: (1) Biome, the import rules
// (dependency-cruiser), tsc and the schema drift check, at once; (2) at once: unit and integration tests on
// PGlite, integration and chain tests on PostgreSQL (KASSA_TEST_DATABASE_URL, else a throwaway server from the
// installed binaries), and the production build; (3) system tests on PGlite and PostgreSQL at once;
// (4) Playwright (api, ui). Prints each step's duration, then a table with the total. The last line counts
// each test once: `N passed, N failed, N failed a first attempt` (passed on a retry; none retries today).
import { spawn, spawnSync } from "node:child_process";
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
  `--reporter=${path.join(root, "scripts", "first-attempts-reporter.mjs")}`,
];
const VITEST_REPORTS = [
  "vitest-pglite.json",
  "vitest-postgres.json",
  "system-pglite.json",
  "system-postgres.json",
];
const firstAttemptsFile = (report) => path.join(reports, report.replace(/\.json$/, ".first-attempts.json"));

/** Where a vitest step's reporter writes its first-attempt failures: beside the step's JSON report. */
function firstAttemptsEnv(args) {
  const report = args.find((arg) => arg.startsWith("--outputFile.json="));
  return report ? { KASSA_FIRST_ATTEMPTS_FILE: firstAttemptsFile(path.basename(report)) } : {};
}

const startedAt = performance.now();
const durations = [];

function formatDuration(ms) {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/** Each step's duration and the total so far: printed at the end, and when a step fails. */
function printDurations() {
  const width = Math.max(...durations.map((d) => d.title.length), "total".length);
  console.log("\nDurations:");
  for (const { title, ms, isFailed } of durations)
    console.log(
      `  ${title.padEnd(width)}  ${formatDuration(ms).padStart(12)}${isFailed ? "  (failed)" : ""}`,
    );
  console.log(`  ${"total".padEnd(width)}  ${formatDuration(performance.now() - startedAt).padStart(12)}`);
}

function step(title, command, args, env = {}) {
  console.log(`\n━━ ${title}`);
  const began = performance.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...firstAttemptsEnv(args), ...env },
  });
  const ms = performance.now() - began;
  durations.push({ title, ms, isFailed: result.status !== 0 });
  if (result.status !== 0) {
    console.error(`\n✗ ${title} failed after ${formatDuration(ms)}`);
    printDurations();
    cleanup();
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${title} (${formatDuration(ms)})`);
}

/**
 * Runs steps at the same time, each into its own log, printed whole when it ends (so the outputs do
 * not interleave); fails like `step` if any fails, after all have ended.
 */
async function stepsTogether(list) {
  console.log(`\n━━ at the same time: ${list.map((s) => s.title).join("; ")}`);
  const results = await Promise.all(
    list.map(
      ({ title, command, args, env = {} }) =>
        new Promise((resolve) => {
          const began = performance.now();
          const output = [];
          const child = spawn(command, args, {
            cwd: root,
            stdio: ["ignore", "pipe", "pipe"],
            env: { ...process.env, FORCE_COLOR: "1", ...firstAttemptsEnv(args), ...env },
          });
          child.stdout.on("data", (chunk) => output.push(chunk));
          child.stderr.on("data", (chunk) => output.push(chunk));
          child.on("close", (status) => {
            const ms = performance.now() - began;
            console.log(`\n━━ ${title}`);
            process.stdout.write(Buffer.concat(output));
            console.log(
              status === 0
                ? `✓ ${title} (${formatDuration(ms)})`
                : `✗ ${title} failed after ${formatDuration(ms)}`,
            );
            resolve({ title, ms, isFailed: status !== 0 });
          });
        }),
    ),
  );
  durations.push(...results);
  if (results.some((result) => result.isFailed)) {
    printDurations();
    cleanup();
    process.exit(1);
  }
}

let postgres;
function cleanup() {
  postgres?.stop();
  postgres = undefined;
}

// Four checks that each keep about one core busy: together on two cores, about half their time in a row.
await stepsTogether([
  { title: "lint", command: bin("biome"), args: ["check", "."] },
  { title: "import rules", command: "npm", args: ["run", "--silent", "lint:deps"] },
  { title: "typecheck", command: bin("tsc"), args: ["--noEmit"] },
  {
    title: "schema drift",
    command: process.execPath,
    args: [path.join(root, "scripts", "check-schema-drift.mjs")],
  },
]);
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
  // All three at once: the two runs spend much of their time waiting (on anvil, litecoind, PostgreSQL's
  // commits, timers), and the build needs neither; one after another they left a fifth of two cores idle.
  await stepsTogether([
    {
      title: "unit and integration tests on PGlite",
      command: bin("vitest"),
      args: ["run", ...vitestReport("vitest-pglite.json")],
      env: { KASSA_TEST_DATABASE_URL: "" },
    },
    {
      title: "integration tests on PostgreSQL",
      command: bin("vitest"),
      args: [
        "run",
        "tests/integration",
        "tests/chain",
        // Files about the embedded database alone (its data directory, its clusters) ran on PGlite.
        "--exclude",
        "**/*.pglite.test.ts",
        ...vitestReport("vitest-postgres.json"),
      ],
      env: { KASSA_TEST_DATABASE_URL: url },
    },
    // The typecheck step above checked the tree this build compiles.
    {
      title: "production build",
      command: process.execPath,
      args: [path.join(root, "scripts", "ensure-build.mjs")],
      env: { KASSA_BUILD_TYPECHECKED: "1" },
    },
  ]);
  const system = ["run", "--config", "vitest.system.config.ts"];
  // Both at once: each runs one file at a time, and a file spends much of its time waiting (on
  // timers, callbacks, blocks), so on two cores the two runs fill each other's waits.
  await stepsTogether([
    {
      title: "system tests on PGlite (SIGKILL, fuzzing)",
      command: bin("vitest"),
      args: [...system, "--exclude", "**/*.pg.test.ts", ...vitestReport("system-pglite.json")],
      env: { KASSA_TEST_DATABASE_URL: "" },
    },
    {
      title: "system tests on PostgreSQL (SIGKILL, fuzzing, two servers and two workers)",
      command: bin("vitest"),
      args: [...system, ...vitestReport("system-postgres.json")],
      env: { KASSA_TEST_DATABASE_URL: url },
    },
  ]);
} finally {
  cleanup();
}
step("end-to-end tests (Playwright: api, ui)", bin("playwright"), ["test"], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, "playwright.json"),
});

// One plain total for the whole suite (every runner above failed the run already if a test failed).
// A test that passed only on a retry counts as passed and as a first-attempt failure.
let passed = 0;
let failed = 0;
const retried = [];
for (const name of VITEST_REPORTS) {
  const report = JSON.parse(fs.readFileSync(path.join(reports, name), "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  const firstAttempts = JSON.parse(fs.readFileSync(firstAttemptsFile(name), "utf8"));
  retried.push(...firstAttempts.tests.map((test) => `${name.replace(/\.json$/, "")}: ${test}`));
}
// Playwright's "flaky" are its tests that passed only on a retry.
const playwright = JSON.parse(fs.readFileSync(path.join(reports, "playwright.json"), "utf8")).stats;
passed += playwright.expected + playwright.flaky;
failed += playwright.unexpected;
printDurations();
if (retried.length > 0) console.log(`\nPassed only on a retry:\n  ${retried.join("\n  ")}`);
console.log(
  `\n${passed} passed, ${failed} failed, ${retried.length + playwright.flaky} failed a first attempt ` +
    `(total ${formatDuration(performance.now() - startedAt)})`,
);
