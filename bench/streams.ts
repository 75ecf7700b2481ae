import { spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startPostgres } from "../scripts/postgres.mjs";
import { recordRun } from "./record-run";
import { startServer, stopServer } from "./server";

/**
 * The checkout's event streams at scale, against the production server on loopback: `ping` p50/p99 with no
 * stream open, then with 10 and 10,000 checkout streams over a few invoices, and the server's statements per
 * second (`kassa_db_queries_total`) while the invoices get one sandbox payment a second in all: it should not
 * grow with viewers (docs/decisions/checkout-streams.md); every event must reach every viewer. Fixed samples
 * and windows; `npm run bench` runs it too. The npm script raises the open-file limit (a socket a side).
 *   npm run bench:streams -- [--db pglite|pg|both] [--streams n] [--invoices n] [--window s] [--no-record]
 */
const root = path.resolve(import.meta.dirname, "..");
const PORT = 3297;
const PINGS = 1_000;
const OPEN_BATCH = 250;

type Credentials = { merchant_id: number; api_key: string; api_secret: string };
type Latency = { p50: number; p99: number; max: number };
type Phase = {
  idleQueriesPerSecond: number;
  viewers: number;
  idlePing: Latency;
  busyPing: Latency;
  queriesPerSecond: number;
  events: number;
  expectedEvents: number;
};
export type StreamsRun = { label: string; openSeconds: number; rssMb: number; phases: Phase[] };

const sign = (secret: string, body: string) => createHmac("sha512", secret).update(body).digest("hex");
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** `count` sequential pings on one keep-alive connection, as a health check would send them. */
async function pings(count: number): Promise<Latency> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port: PORT, path: "/api/v2/ping", agent }, (response) => {
          response.resume();
          response.on("end", () =>
            response.statusCode === 200 ? resolve() : reject(new Error(`ping ${response.statusCode}`)),
          );
        })
        .on("error", reject);
    });
    times.push(performance.now() - started);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), max: round(times.at(-1)!) };
}

async function signedPost(credentials: Credentials, path: string, payload: unknown) {
  const body = JSON.stringify(payload);
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
  return (await response.json()) as { data: Record<string, unknown> };
}

/** The server's own count of statements sent to the database. */
async function queryCount(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${PORT}/metrics`)).text();
  const match = /^kassa_db_queries_total (\d+)/m.exec(text);
  if (!match) throw new Error("kassa_db_queries_total missing from /metrics");
  return Number(match[1]);
}

/**
 * Statements per second since `started`, less the pings' own (`/api/v2/ping` runs one `select 1`
 * each, and a window holds PINGS of them); the closing scrape's few are the same in every window.
 */
function statementsPerSecond(statements: number, started: number): number {
  return Math.round(((statements - PINGS) / ((performance.now() - started) / 1_000)) * 10) / 10;
}

type Viewer = { request: http.ClientRequest; events: number };

/** Opens one checkout stream and counts the invoice events it receives. */
function openStream(token: string): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const viewer: Viewer = { request: undefined as unknown as http.ClientRequest, events: 0 };
    viewer.request = http.get(
      { host: "127.0.0.1", port: PORT, path: `/api/checkout/${token}/events`, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new Error(`stream answered ${response.statusCode}`));
        }
        let tail = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          const text = tail + chunk;
          viewer.events += text.split("event: invoice\n").length - 1;
          tail = text.slice(-"event: invoice\n".length + 1);
        });
        response.on("error", () => {});
        resolve(viewer);
      },
    );
    viewer.request.on("error", reject);
  });
}

async function openStreams(tokens: string[], count: number): Promise<Viewer[]> {
  const viewers: Viewer[] = [];
  for (let start = 0; start < count; start += OPEN_BATCH) {
    const batch = Array.from({ length: Math.min(OPEN_BATCH, count - start) }, (_, i) =>
      openStream(tokens[(start + i) % tokens.length]!),
    );
    viewers.push(...(await Promise.all(batch)));
  }
  return viewers;
}

/**
 * One window: a sandbox payment a second (invoices in turn) while pings run; the statements per
 * second over the window, and how many invoice events the viewers received for these payments.
 */
async function window(input: {
  credentials: Credentials;
  invoices: { token: string; address: string }[];
  viewers: Viewer[];
  seconds: number;
  viewersPerInvoice: number;
}): Promise<Omit<Phase, "viewers" | "idlePing" | "idleQueriesPerSecond">> {
  const eventsBefore = input.viewers.reduce((sum, viewer) => sum + viewer.events, 0);
  const queriesBefore = await queryCount();
  const started = performance.now();
  let expectedEvents = 0;
  const payments = (async () => {
    for (let i = 0; i < input.seconds; i++) {
      const invoice = input.invoices[i % input.invoices.length]!;
      await signedPost(input.credentials, "/api/v2/sandbox/payments", {
        currency: "BTC",
        address: invoice.address,
        amount: "0.00001",
      });
      expectedEvents += input.viewersPerInvoice;
      await pause(Math.max(0, started + (i + 1) * 1_000 - performance.now()));
    }
  })();
  const busyPing = await pings(PINGS);
  await payments;
  const queriesPerSecond = statementsPerSecond((await queryCount()) - queriesBefore, started);
  // Every viewer must get every payment: wait for the fan-out to finish (bounded).
  const deadline = Date.now() + 30_000;
  let events = 0;
  for (;;) {
    events = input.viewers.reduce((sum, viewer) => sum + viewer.events, 0) - eventsBefore;
    if (events >= expectedEvents || Date.now() > deadline) break;
    await pause(100);
  }
  return { busyPing, queriesPerSecond, events, expectedEvents };
}

export async function measureStreams(options: {
  databases: string[];
  streams: number;
  invoices: number;
  seconds: number;
}): Promise<StreamsRun[]> {
  const runs: StreamsRun[] = [];
  for (const database of options.databases) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-streams-"));
    const postgres = database === "pg" ? await startPostgres({ durable: true }) : undefined;
    const label = database === "pg" ? "PostgreSQL" : "PGlite";
    // Jobs off and no block timer: the statements counted are the payments' and the streams'.
    const env: Record<string, string> = {
      KASSA_DATA_DIR: dataDir,
      KASSA_MODE: "sandbox",
      KASSA_SEED_DEMO: "1",
      KASSA_JOBS: "off",
      KASSA_SANDBOX_BLOCK_SECONDS: "0",
      KASSA_RATE_LIMIT_PER_SECOND: "0",
      KASSA_CHECKOUT_STREAMS_PER_TOKEN: String(options.streams),
      KASSA_CHECKOUT_STREAMS_PER_ADDRESS: String(options.streams),
      KASSA_CHECKOUT_STREAMS_MAX: String(options.streams + 10),
    };
    if (postgres) {
      env.DATABASE_URL = postgres.url;
      env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
    }
    const child = await startServer(PORT, env);
    const viewers: Viewer[] = [];
    try {
      const credentials: Credentials = JSON.parse(
        fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8"),
      );
      const invoices: { token: string; address: string }[] = [];
      for (let i = 0; i < options.invoices; i++) {
        const { data } = await signedPost(credentials, "/api/v2/invoices/create", {
          foreign_id: `bench-stream-${randomBytes(4).toString("hex")}-${i}`,
          end_user_reference: `viewer-${i}`,
          timer: true,
          title: "Order",
          currency: "EUR",
          amount: "1000",
          sender_currency: "BTC",
          url_success: "https://shop.example/paid",
          url_failed: "https://shop.example/failed",
          email_user: "buyer@example.com",
          sender_type: "natural",
          sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
        });
        const token = new URL(String(data.url)).pathname.split("/").pop()!;
        const view = (await (await fetch(`http://127.0.0.1:${PORT}/api/checkout/${token}`)).json()) as {
          address: string;
        };
        invoices.push({ token, address: view.address });
      }
      const tokens = invoices.map((invoice) => invoice.token);
      await pings(200); // warm-up: JIT, route compilation caches
      const phases: Phase[] = [];
      let openSeconds = 0;
      for (const count of [0, options.invoices, options.streams]) {
        console.log(`${label} · ${count} streams`);
        const opening = performance.now();
        viewers.push(...(await openStreams(tokens, count - viewers.length)));
        if (count === options.streams) openSeconds = Math.round((performance.now() - opening) / 100) / 10;
        await pause(2_000); // the first views have gone out
        // Nothing changes: what the open streams cost on their own (they used to poll, twice a second each).
        const idleStarted = performance.now();
        const idleBefore = await queryCount();
        const idlePing = await pings(PINGS);
        const idleQueriesPerSecond = statementsPerSecond((await queryCount()) - idleBefore, idleStarted);
        const measured = await window({
          credentials,
          invoices,
          viewers,
          seconds: options.seconds,
          viewersPerInvoice: count / options.invoices,
        });
        phases.push({ viewers: count, idlePing, idleQueriesPerSecond, ...measured });
      }
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
      const rssMb = Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
      runs.push({ label, openSeconds, rssMb, phases });
    } finally {
      for (const viewer of viewers) viewer.request.destroy();
      await stopServer(child);
      postgres?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return runs;
}

export function streamsTable(runs: StreamsRun[], options: { invoices: number; seconds: number }): string {
  const lines = [
    `#### Checkout event streams (${options.invoices} invoices, one sandbox payment a second for ${options.seconds} s per row)`,
    "",
    "| database | open streams | ping p50 / p99 / max ms, idle | DB statements/s, idle | ping p50 / p99 / max ms, during payments | DB statements/s, during payments | events received / expected |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  const ms = (l: Latency) => `${l.p50} / ${l.p99} / ${l.max}`;
  for (const run of runs)
    for (const phase of run.phases)
      lines.push(
        `| ${run.label} | ${phase.viewers} | ${ms(phase.idlePing)} | ${phase.idleQueriesPerSecond} | ${ms(phase.busyPing)} | ${phase.queriesPerSecond} | ${phase.events} / ${phase.expectedEvents} |`,
      );
  lines.push("");
  for (const run of runs)
    lines.push(
      `- ${run.label}: the last streams opened in ${run.openSeconds} s; server RSS with them open ${run.rssMb} MB`,
    );
  return lines.join("\n");
}

if (process.argv[1]?.endsWith("streams.ts")) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
  };
  const db = option("db", "both");
  const settings = {
    databases: db === "both" ? ["pglite", "pg"] : [db],
    streams: Number(option("streams", "10000")),
    invoices: Number(option("invoices", "10")),
    seconds: Number(option("window", "10")),
  };
  spawnSync(process.execPath, [path.join(root, "scripts", "ensure-build.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const machine = `${os.cpus().length} × ${cpu}, Node ${process.version}`;
  const report = `### Streams, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC\n\n${machine}; ${PINGS} sequential pings per column on one keep-alive connection, from the benchmark process that also holds the streams; statements counted by the server (kassa_db_queries_total), less the pings' own select 1.\n\n${streamsTable(await measureStreams(settings), settings)}\n`;
  console.log(`\n${report}`);
  if (!args.includes("--no-record")) {
    console.log(`recorded in ${recordRun("streams", report)}`);
  }
}
