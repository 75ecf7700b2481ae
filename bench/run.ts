import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startPostgres } from "../scripts/postgres.mjs";

/**
 * `npm run bench`: autocannon against Kassa's production server and against the bare node:http
 * baseline (bench/baseline.ts), on the same database, one after the other in the same run, on
 * PGlite and on PostgreSQL. Prints req/s, p50/p99 latency, peak server RSS and Kassa/baseline, and
 * appends the run to docs/BENCHMARKS.md. Loopback only; bounded durations.
 *   npm run bench -- [--db pglite|pg|both] [--duration seconds] [--connections n] [--no-record]
 */
const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
};
const databases = option("db", "both") === "both" ? ["pglite", "pg"] : [option("db", "both")];
const duration = Number(option("duration", "10"));
const connections = Number(option("connections", "10"));
const shouldRecord = !args.includes("--no-record");
const PORT = 3299;

type Result = { rps: number; p50: number; p99: number };
type Row = {
  database: string;
  endpoint: string;
  kassa: Result;
  baseline: Result;
  kassaRss: number;
  baselineRss: number;
};

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

async function waitForPing(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${PORT}/api/v2/ping`);
      if (response.ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("server did not start");
}

async function start(entry: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: root,
    env: { ...process.env, ...env, NODE_ENV: "production", PORT: String(PORT), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitForPing();
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function load(request: {
  method: "GET" | "POST";
  path: string;
  body?: string;
  headers?: Record<string, string>;
}) {
  const options = {
    url: `http://127.0.0.1:${PORT}${request.path}`,
    connections,
    method: request.method,
    body: request.body,
    headers: request.headers,
  };
  await autocannon({ ...options, duration: 2 }); // warm-up: JIT, caches, connection pools
  const result = await autocannon({ ...options, duration });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${request.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
}

function endpoints(credentials: { api_key: string; api_secret: string }) {
  const body = "{}";
  const signature = createHmac("sha512", credentials.api_secret).update(body).digest("hex");
  return [
    { name: "GET /api/v2/ping", method: "GET" as const, path: "/api/v2/ping" },
    {
      name: "POST /api/v2/accounts/list (signed)",
      method: "POST" as const,
      path: "/api/v2/accounts/list",
      body,
      headers: {
        "content-type": "application/json",
        "x-processing-key": credentials.api_key,
        "x-processing-signature": signature,
      },
    },
  ];
}

async function measure(database: string): Promise<Row[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-"));
  const postgres = database === "pg" ? await startPostgres({ durable: true }) : undefined;
  const env: Record<string, string> = {
    KASSA_DATA_DIR: dataDir,
    KASSA_MODE: "sandbox",
    KASSA_SEED_DEMO: "1",
  };
  if (postgres) {
    env.DATABASE_URL = postgres.url;
    env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
  }
  try {
    const kassa = await start("server.ts", env);
    const credentials = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8"));
    const kassaResults: Result[] = [];
    for (const endpoint of endpoints(credentials)) kassaResults.push(await load(endpoint));
    const kassaRss = peakRssMb(kassa.pid!);
    await stop(kassa);

    const baseline = await start("bench/baseline.ts", env);
    const baselineResults: Result[] = [];
    for (const endpoint of endpoints(credentials)) baselineResults.push(await load(endpoint));
    const baselineRss = peakRssMb(baseline.pid!);
    await stop(baseline);

    return endpoints(credentials).map((endpoint, i) => ({
      database: database === "pg" ? "PostgreSQL" : "PGlite",
      endpoint: endpoint.name,
      kassa: kassaResults[i]!,
      baseline: baselineResults[i]!,
      kassaRss,
      baselineRss,
    }));
  } finally {
    postgres?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function table(rows: Row[]): string {
  const lines = [
    "| database | endpoint | Kassa req/s | p50 ms | p99 ms | baseline req/s | p50 ms | p99 ms | Kassa / baseline | peak RSS Kassa / baseline |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.database} | ${r.endpoint} | ${r.kassa.rps} | ${r.kassa.p50} | ${r.kassa.p99} | ${r.baseline.rps} | ${r.baseline.p50} | ${r.baseline.p99} | ${(r.kassa.rps / r.baseline.rps).toFixed(2)} | ${r.kassaRss} MB / ${r.baselineRss} MB |`,
    );
  }
  return lines.join("\n");
}

spawnSync(process.execPath, [path.join(root, "scripts", "ensure-build.mjs")], {
  cwd: root,
  stdio: "inherit",
});
const rows: Row[] = [];
for (const database of databases) rows.push(...(await measure(database)));
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const machine = `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
const report = `### ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC\n\n${machine}; autocannon, ${connections} connections, ${duration} s per endpoint after a 2 s warm-up.\n\n${table(rows)}\n`;
console.log(`\n${report}`);
if (shouldRecord) {
  const file = path.join(root, "docs", "BENCHMARKS.md");
  fs.appendFileSync(file, `\n${report}`);
  console.log(`appended to ${path.relative(root, file)}`);
}
