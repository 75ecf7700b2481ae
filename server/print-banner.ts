import type { EngineStarted } from "@/lib/host/engine-protocol";

/** What an operator sees once Kassa serves: where, on which database, and the demo credentials. */
export function printBanner({
  base,
  isDev,
  started,
}: {
  base: string;
  isDev: boolean;
  started: EngineStarted;
}) {
  console.log(`Kassa is running at ${base} (${isDev ? "development" : "production"}, ${started.mode} mode)`);
  console.log(`  database: ${started.database}`);
  console.log(`  API:      ${base}/api/v2   reference: ${base}/docs/api`);
  console.log(
    `  jobs:     ${started.jobs ? "running in this process" : "off (KASSA_JOBS=off): run `npm run worker`"}`,
  );
  if (!started.demo) return;
  console.log("  Demo merchant (sandbox):");
  console.log(`    dashboard sign-in: ${started.demo.email} / ${started.demo.password}`);
  console.log(`    API key:    ${started.demo.api_key}`);
  console.log(`    API secret: ${started.demo.api_secret}`);
}
