import { type ChildProcess, spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startPostgres } from "../scripts/postgres.mjs";
import { TSX_FLAGS } from "../scripts/tsx-flags.mjs";
import { measureExplorer } from "./explorer";
import { recordRun } from "./record-run";
import { startServer, stopServer } from "./server";

/**
 * `npm run bench`: autocannon on loopback against Kassa's production server, with the API fast path and
 * without (KASSA_API_FAST_PATH=off; --no-next skips it), and the bare node:http baseline (bench/baseline.ts),
 * in one run on the same database, PGlite then PostgreSQL: req/s, p50/p99, ratio and peak RSS, recorded in
 * docs/benchmarks/; then bench/explorer.ts (unless --transactions 0) and bench/streams.ts. Bounded durations.
 *   npm run bench -- [--db pglite|pg|both] [--duration s] [--rounds n] [--connections n] [--transactions n]
 *                    [--only <part of an endpoint's name>]
 *                    [--no-next] [--no-record] [--no-streams]
 */
const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
};
const databases = option("db", "both") === "both" ? ["pglite", "pg"] : [option("db", "both")];
const duration = Number(option("duration", "10"));
const rounds = Number(option("rounds", "5"));
const connections = Number(option("connections", "10"));
const bulkTransactions = Number(option("transactions", "1000000"));
const withNextPipeline = !args.includes("--no-next");
const shouldRecord = !args.includes("--no-record");
const PORT = 3299;
const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

type Result = { rps: number; p50: number; p99: number; cpuMicros: number };
type Credentials = { merchant_id: number; api_key: string; api_secret: string };
type Server = "kassa" | "next" | "baseline";
type Row = { database: string; endpoint: string; results: Partial<Record<Server, Result>> };

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

const sign = (secret: string, body: string) => createHmac("sha512", secret).update(body).digest("hex");

type Endpoint = { name: string; method: "GET" | "POST"; path: string; body: () => string };

function endpoints(lookupId: number): Endpoint[] {
  const run = randomBytes(4).toString("hex");
  let counter = 0;
  return [
    {
      name: "POST /api/v2/invoices/create",
      method: "POST",
      path: "/api/v2/invoices/create",
      body: () =>
        JSON.stringify({
          foreign_id: `bench-inv-${run}-${++counter}`,
          end_user_reference: `customer-${counter % 500}`,
          timer: true,
          title: "Order",
          currency: "EUR",
          amount: "49.90",
          url_success: "https://shop.example/paid",
          url_failed: "https://shop.example/failed",
          email_user: "buyer@example.com",
          sender_type: "natural",
          sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
        }),
    },
    {
      name: "POST /api/v2/withdrawal/crypto",
      method: "POST",
      path: "/api/v2/withdrawal/crypto",
      body: () =>
        JSON.stringify({
          currency: "BTC",
          amount: "0.001",
          address: BTC_ADDRESS,
          foreign_id: `bench-wd-${run}-${++counter}`,
          end_user_reference: `payee-${counter % 500}`,
          sender_type: "legal",
          sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
          receiver_type: "natural",
          receiver_data: { first_name: "Alan", last_name: "Turing", date_of_birth: "1912-06-23" },
        }),
    },
    {
      name: "GET /api/v2/transactions/info",
      method: "GET",
      path: "/api/v2/transactions/info",
      body: () => JSON.stringify({ id: lookupId }),
    },
    { name: "POST /api/v2/accounts/list", method: "POST", path: "/api/v2/accounts/list", body: () => "{}" },
  ];
}

/** One contender's requests, latencies and CPU time for an endpoint, summed over its rounds. */
type Tally = { requests: number; seconds: number; latencies: number[]; cpuSeconds: number };

/** A process's CPU time so far (user and system, all its threads: garbage collection included), from /proc. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command (in parentheses, which may hold spaces): utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
/** Linux's USER_HZ, which /proc reports CPU time in: 100 on every architecture Node runs on. */
const CLOCK_TICKS = 100;

async function load(
  endpoint: Endpoint,
  credentials: Credentials,
  port: number,
  seconds: number,
  tally?: Tally,
  pid?: number,
) {
  const cpuBefore = pid === undefined ? 0 : cpuSeconds(pid);
  const headers = { "content-type": "application/json", "x-processing-key": credentials.api_key };
  const options: autocannon.Options = {
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: endpoint.method,
        path: endpoint.path,
        setupRequest: (request: object) => {
          const body = endpoint.body();
          return {
            ...request,
            body,
            headers: { ...headers, "x-processing-signature": sign(credentials.api_secret, body) },
          };
        },
      },
    ],
  };
  const run = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    instance.on("response", (_client, _status, _bytes, ms) => tally?.latencies.push(ms));
  });
  if (run.non2xx > 0 || run.errors > 0 || run.timeouts > 0) {
    throw new Error(`${endpoint.name}: ${run.non2xx} non-2xx answers, ${run.errors} errors`);
  }
  if (tally) {
    tally.requests += run.requests.total;
    tally.seconds += seconds;
    if (pid !== undefined) tally.cpuSeconds += cpuSeconds(pid) - cpuBefore;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

function summarise({ requests, seconds, latencies, cpuSeconds }: Tally): Result {
  const sorted = latencies.sort((a, b) => a - b);
  return {
    rps: Math.round(requests / seconds),
    cpuMicros: Math.round((cpuSeconds * 1e6) / requests),
    p50: Math.round(percentile(sorted, 50)),
    p99: Math.round(percentile(sorted, 99)),
  };
}

async function signedFetch(credentials: Credentials, path: string, body: string) {
  const response = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-processing-key": credentials.api_key,
      "x-processing-signature": sign(credentials.api_secret, body),
    },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function servePage(port: number) {
  const page = await fetch(`http://127.0.0.1:${port}/login`);
  if (!page.ok) throw new Error(`/login: ${page.status}`);
  await page.arrayBuffer();
}

function cli(env: Record<string, string>, ...argv: string[]) {
  const result = spawnSync(process.execPath, [...TSX_FLAGS, "cli/index.ts", ...argv], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`cli ${argv.join(" ")}: ${result.stderr}`);
}

type Contender = { server: Server; entry: string; env: Record<string, string>; port: number };

/**
 * The servers of one database run side by side, each on its own copy of the seeded data directory (on
 * PostgreSQL they share the database), and take turns: after a warm-up each, `rounds` rounds in which
 * every server gets `duration / rounds` seconds, the order reversed every other round. This machine's
 * speed drifts by up to 2x over minutes; a ratio of two servers measured minutes apart said more about
 * the drift than about the servers.
 */
async function measure(database: string) {
  const seedDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-"));
  const dirs = [seedDir];
  const postgres = database === "pg" ? await startPostgres({ durable: true }) : undefined;
  // The same process settings for every server: no background jobs (the baseline has none), no
  // per-key rate limit (the load is one key on purpose).
  const env: Record<string, string> = {
    KASSA_DATA_DIR: seedDir,
    KASSA_MODE: "sandbox",
    KASSA_SEED_DEMO: "1",
    KASSA_JOBS: "off",
    KASSA_RATE_LIMIT_PER_SECOND: "0",
  };
  if (postgres) {
    env.DATABASE_URL = postgres.url;
    env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
  }
  const label = database === "pg" ? "PostgreSQL" : "PGlite";
  const children: ChildProcess[] = [];
  try {
    const seeder = await startServer(PORT, env);
    const credentials: Credentials = JSON.parse(
      fs.readFileSync(path.join(seedDir, "demo-credentials.json"), "utf8"),
    );
    cli(
      env,
      "sandbox",
      "credit",
      "--merchant",
      String(credentials.merchant_id),
      "--currency",
      "BTC",
      "--amount",
      "1000000",
    );
    const invoice = await signedFetch(credentials, "/api/v2/invoices/create", endpoints(0)[0]!.body());
    const only = option("only", "");
    const list = endpoints(invoice.data.id).filter((endpoint) => endpoint.name.includes(only));
    await stopServer(seeder);

    const contenders: Contender[] = [
      { server: "kassa", entry: "server.ts", env: {}, port: PORT },
      { server: "baseline", entry: "bench/baseline.ts", env: {}, port: PORT + 1 },
    ];
    if (withNextPipeline)
      contenders.push({
        server: "next",
        entry: "server.ts",
        env: { KASSA_API_FAST_PATH: "off" },
        port: PORT + 2,
      });
    for (const contender of contenders) {
      const dir = `${seedDir}-${contender.server}`;
      fs.cpSync(seedDir, dir, { recursive: true });
      dirs.push(dir);
      children.push(
        await startServer(contender.port, { ...env, ...contender.env, KASSA_DATA_DIR: dir }, contender.entry),
      );
      // As in production, where one process serves the dashboard and the API: a page switches on
      // Next's and React's request storages. The server switches them off two seconds after the last
      // request that used them (docs/decisions/one-async-context.md), before the first measured turn.
      if (contender.entry === "server.ts") await servePage(contender.port);
    }
    const rows: Row[] = [];
    const slice = duration / rounds;
    for (const endpoint of list) {
      console.log(`${label} · ${endpoint.name}: ${contenders.map((c) => c.server).join(", ")} in turns`);
      const tallies = contenders.map(
        (): Tally => ({ requests: 0, seconds: 0, latencies: [], cpuSeconds: 0 }),
      );
      // JIT, caches, connection pools
      for (const contender of contenders) await load(endpoint, credentials, contender.port, 2);
      for (let round = 0; round < rounds; round++) {
        const order = contenders.map((_, i) => i);
        if (round % 2 === 1) order.reverse();
        for (const i of order)
          await load(endpoint, credentials, contenders[i]!.port, slice, tallies[i], children[i]!.pid);
      }
      const results: Row["results"] = {};
      contenders.forEach((contender, i) => {
        results[contender.server] = summarise(tallies[i]!);
      });
      rows.push({ database: label, endpoint: endpoint.name, results });
    }
    const rss: Partial<Record<Server, number>> = {};
    contenders.forEach((contender, i) => {
      rss[contender.server] = peakRssMb(children[i]!.pid!);
    });
    return { rows, rss, label };
  } finally {
    for (const child of children) await stopServer(child);
    postgres?.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function table(runs: Awaited<ReturnType<typeof measure>>[]): string {
  const lines = [
    "| database | endpoint | Kassa req/s | p50 ms | p99 ms | baseline req/s | p50 ms | p99 ms | Kassa / baseline | via Next pipeline req/s | p99 ms |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const cpuLines = [
    "",
    "CPU time per request, µs (each server process's user and system time over its measured turns, all its threads, garbage collection included, divided by the requests it answered):",
    "",
    "| database | endpoint | Kassa | baseline | Kassa − baseline | Kassa / baseline | via Next pipeline |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const { rows } of runs) {
    for (const { database, endpoint, results } of rows) {
      const { kassa, baseline, next } = results as Record<Server, Result | undefined>;
      const cells = (r: Result | undefined, fields: (keyof Result)[]) =>
        fields.map((f) => (r ? String(r[f]) : "–")).join(" | ");
      const ratio = (field: keyof Result) =>
        kassa && baseline ? (kassa[field] / baseline[field]).toFixed(2) : "–";
      const more = kassa && baseline ? String(kassa.cpuMicros - baseline.cpuMicros) : "–";
      lines.push(
        `| ${database} | ${endpoint} | ${cells(kassa, ["rps", "p50", "p99"])} | ${cells(baseline, ["rps", "p50", "p99"])} | ${ratio("rps")} | ${cells(next, ["rps", "p99"])} |`,
      );
      cpuLines.push(
        `| ${database} | ${endpoint} | ${cells(kassa, ["cpuMicros"])} | ${cells(baseline, ["cpuMicros"])} | ${more} | ${ratio("cpuMicros")} | ${cells(next, ["cpuMicros"])} |`,
      );
    }
  }
  lines.push(...cpuLines);
  lines.push("", "Peak RSS of each server over its whole run:", "");
  for (const { label, rss } of runs) {
    const next = rss.next ? `, via Next pipeline ${rss.next} MB` : "";
    lines.push(`- ${label}: Kassa ${rss.kassa} MB, baseline ${rss.baseline} MB${next}`);
  }
  return lines.join("\n");
}

spawnSync(process.execPath, [path.join(root, "scripts", "ensure-build.mjs")], {
  cwd: root,
  stdio: "inherit",
});
const runs = [];
for (const database of databases) runs.push(await measure(database));
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const machine = `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
let report = `### ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC\n\n${machine}; autocannon, ${connections} connections, ${duration} s per endpoint and server after a 2 s warm-up, in ${rounds} rounds that alternate the servers; signed requests, unique foreign_id per write.\n\n${table(runs)}\n`;
console.log(`\n${report}`);
if (bulkTransactions > 0) {
  const explorer = await measureExplorer({ transactions: bulkTransactions, databases });
  console.log(`\n${explorer}`);
  report += `\n${explorer}\n`;
}
if (shouldRecord) {
  console.log(`recorded in ${recordRun("api", report)}`);
}
// The checkout's event streams (bench/streams.ts) in their own process: it raises its open-file limit.
if (!args.includes("--no-streams")) {
  const streamArgs = ["run", "bench:streams", "--", "--db", option("db", "both")];
  if (!shouldRecord) streamArgs.push("--no-record");
  spawnSync("npm", streamArgs, { cwd: root, stdio: "inherit" });
}
