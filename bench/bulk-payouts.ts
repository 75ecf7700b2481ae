import { spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPostgres } from "../scripts/postgres.mjs";
import { TSX_FLAGS } from "../scripts/tsx-flags.mjs";
import { recordRun } from "./record-run";
import { startServer, stopServer } from "./server";

/**
 * `npm run bench:bulk`: what a bulk payout buys over single withdrawals. On one Kassa production
 * server (jobs off, so only the accepting is measured), the same number of payouts is sent as
 * single POST /withdrawal/crypto requests (10 in flight: the baseline) and as POST
 * /withdrawal/batch requests of 1,000, one after the other in the same run, on PGlite and on
 * PostgreSQL. Prints payouts accepted per second and each batch request's latency.
 *   npm run bench:bulk -- [--db pglite|pg|both] [--payouts n] [--no-record]
 */
const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
};
const databases = option("db", "both") === "both" ? ["pglite", "pg"] : [option("db", "both")];
const total = Number(option("payouts", "3000"));
const BATCH = 1000;
const IN_FLIGHT = 10;
const PORT = 3298;
const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const SENDER = {
  sender_type: "legal",
  sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
};
type Credentials = { merchant_id: number; api_key: string; api_secret: string };

const run = randomBytes(4).toString("hex");
const payout = (id: string) => ({
  currency: "BTC",
  amount: "0.001",
  address: BTC_ADDRESS,
  foreign_id: id,
  receiver_type: "natural",
  receiver_data: { first_name: "Alan", last_name: "Turing", date_of_birth: "1912-06-23" },
});

async function post(credentials: Credentials, apiPath: string, payload: unknown): Promise<number> {
  const body = JSON.stringify(payload);
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${PORT}${apiPath}`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-processing-key": credentials.api_key,
      "x-processing-signature": createHmac("sha512", credentials.api_secret).update(body).digest("hex"),
    },
  });
  if (response.status !== 201) throw new Error(`${apiPath}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  return performance.now() - started;
}

async function singles(credentials: Credentials, count: number, phase: string) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await post(credentials, "/api/v2/withdrawal/crypto", {
        ...payout(`single-${run}-${phase}-${i}`),
        end_user_reference: `payee-${i}`,
        ...SENDER,
      });
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return performance.now() - started;
}

async function batches(credentials: Credentials, count: number, phase: string) {
  const latencies: number[] = [];
  const started = performance.now();
  for (let b = 0; b * BATCH < count; b++) {
    const reference = `bulk-${run}-${phase}-${b}`;
    const rows = Array.from({ length: Math.min(BATCH, count - b * BATCH) }, (_, i) =>
      payout(`${reference}-${i}`),
    );
    latencies.push(
      await post(credentials, "/api/v2/withdrawal/batch", { reference, ...SENDER, payouts: rows }),
    );
  }
  return { ms: performance.now() - started, latencies: latencies.sort((a, b) => a - b) };
}

async function measure(database: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-bulk-"));
  const postgres = database === "pg" ? await startPostgres({ durable: true }) : undefined;
  const env: Record<string, string> = {
    KASSA_DATA_DIR: dataDir,
    KASSA_MODE: "sandbox",
    KASSA_SEED_DEMO: "1",
    KASSA_JOBS: "off",
    KASSA_RATE_LIMIT_PER_SECOND: "0",
  };
  if (postgres) {
    env.DATABASE_URL = postgres.url;
    env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
  }
  try {
    const child = await startServer(PORT, env);
    try {
      const credentials: Credentials = JSON.parse(
        fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8"),
      );
      const merchant = String(credentials.merchant_id);
      const credit = ["sandbox", "credit", "--merchant", merchant, "--currency", "BTC", "--amount", "1000"];
      const cli = spawnSync(process.execPath, [...TSX_FLAGS, "cli/index.ts", ...credit], {
        cwd: root,
        env: { ...process.env, ...env },
        encoding: "utf8",
      });
      if (cli.status !== 0) throw new Error(cli.stderr);
      // Warm-up: JIT, caches, pools, on both endpoints.
      await singles(credentials, 50, "warm");
      await batches(credentials, 50, "warm");
      const single = await singles(credentials, total, "run");
      const bulk = await batches(credentials, total, "run");
      return { database: database === "pg" ? "PostgreSQL" : "PGlite", single, bulk };
    } finally {
      await stopServer(child);
    }
  } finally {
    postgres?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

spawnSync(process.execPath, [path.join(root, "scripts", "ensure-build.mjs")], {
  cwd: root,
  stdio: "inherit",
});
const lines = [
  `| database | way | payouts | seconds | payouts/s | batch request p50 ms | max ms |`,
  "|---|---|---:|---:|---:|---:|---:|",
];
for (const database of databases) {
  const { database: label, single, bulk } = await measure(database);
  const rate = (ms: number) => Math.round((total / ms) * 1000);
  lines.push(
    `| ${label} | single withdrawal/crypto, ${IN_FLIGHT} in flight (baseline) | ${total} | ${(single / 1000).toFixed(1)} | ${rate(single)} | – | – |`,
  );
  const p50 = bulk.latencies[Math.floor(bulk.latencies.length / 2)]!;
  lines.push(
    `| ${label} | withdrawal/batch of ${BATCH} | ${total} | ${(bulk.ms / 1000).toFixed(1)} | ${rate(bulk.ms)} | ${Math.round(p50)} | ${Math.round(bulk.latencies.at(-1)!)} |`,
  );
}
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const report = `### ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: bulk payouts\n\n${os.cpus().length} × ${cpu}, Node ${process.version}; jobs off (accepting only); the same payouts as single requests and as batches, in one run.\n\n${lines.join("\n")}\n`;
console.log(`\n${report}`);
if (!args.includes("--no-record")) console.log(`recorded in ${recordRun("bulk", report)}`);
