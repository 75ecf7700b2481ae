import { type ChildProcess, spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import type { Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { lookUpTransaction } from "@/lib/transactions/describe-transaction";
import { listTransactions, type TransactionFilter } from "@/lib/transactions/list-transactions";
import { startPostgres } from "../scripts/postgres.mjs";
import { TSX_FLAGS } from "../scripts/tsx-flags.mjs";
import { startServer, stopServer } from "./server";
import { signIn } from "./session";

/**
 * The explorer and the lookups at scale: seeds one merchant with `transactions` rows
 * (npm run seed:bulk), records the EXPLAIN ANALYZE plan of every query behind each scenario
 * (captured from the engine functions themselves), then measures each scenario over HTTP on the
 * production server: the dashboard's explorer API with a signed-in session, and
 * `GET /api/v2/transactions/info` signed. Sequential requests (one user), p50 and p95.
 */
const root = path.resolve(import.meta.dirname, "..");
const PORT = 3298;
const REQUESTS = 200;

type Credentials = {
  merchant_id: number;
  email: string;
  password: string;
  api_key: string;
  api_secret: string;
};
type Samples = {
  foreignIds: string[];
  txids: string[];
  addresses: string[];
  ids: number[];
  middleId: number;
};
type Scenario = {
  name: string;
  /** The engine call behind it, for the plans. */
  engine: (db: Db, merchantId: number, i: number) => Promise<unknown>;
  /** The HTTP request a user's browser or API client makes. */
  request: (i: number) => { path: string; body?: string };
};

function scenarios(s: Samples, days: { from: string; to: string }): Scenario[] {
  const explorer = (filter: TransactionFilter, before?: number) => (db: Db, merchantId: number) =>
    listTransactions(db, { merchantId, filter, before });
  const pick = <T>(list: T[], i: number) => list[i % list.length]!;
  return [
    {
      name: "explorer: first page",
      engine: explorer({}),
      request: () => ({ path: "/api/dashboard/transactions" }),
    },
    {
      name: "explorer: filtered (withdrawals, confirmed, BTC)",
      engine: explorer({ types: ["withdrawal"], statuses: ["confirmed"], currency: "BTC" }),
      request: () => ({ path: "/api/dashboard/transactions?type=withdrawal&status=confirmed&currency=BTC" }),
    },
    {
      name: "explorer: filtered (failed invoices in one week)",
      engine: explorer({
        types: ["invoice"],
        statuses: ["failed"],
        from: new Date(`${days.from}T00:00:00Z`),
        to: new Date(`${days.to}T23:59:59.999Z`),
      }),
      request: () => ({
        path: `/api/dashboard/transactions?type=invoice&status=failed&from=${days.from}&to=${days.to}`,
      }),
    },
    {
      name: "explorer: a page deep in the history",
      engine: explorer({}, s.middleId),
      request: () => ({ path: `/api/dashboard/transactions?before=${s.middleId}` }),
    },
    {
      name: "explorer: search by foreign_id",
      engine: (db, m, i) => listTransactions(db, { merchantId: m, filter: { query: pick(s.foreignIds, i) } }),
      request: (i) => ({
        path: `/api/dashboard/transactions?q=${encodeURIComponent(pick(s.foreignIds, i))}`,
      }),
    },
    {
      name: "explorer: search by txid",
      engine: (db, m, i) => listTransactions(db, { merchantId: m, filter: { query: pick(s.txids, i) } }),
      request: (i) => ({ path: `/api/dashboard/transactions?q=${pick(s.txids, i)}` }),
    },
    {
      name: "explorer: search by address",
      engine: (db, m, i) => listTransactions(db, { merchantId: m, filter: { query: pick(s.addresses, i) } }),
      request: (i) => ({ path: `/api/dashboard/transactions?q=${pick(s.addresses, i)}` }),
    },
    {
      name: "transactions/info by id",
      engine: async (db, m, i) => lookUpTransaction(db, m, { id: pick(s.ids, i) }),
      request: (i) => ({ path: "/api/v2/transactions/info", body: JSON.stringify({ id: pick(s.ids, i) }) }),
    },
    {
      name: "transactions/info by foreign_id",
      engine: async (db, m, i) => lookUpTransaction(db, m, { foreign_id: pick(s.foreignIds, i) }),
      request: (i) => ({
        path: "/api/v2/transactions/info",
        body: JSON.stringify({ foreign_id: pick(s.foreignIds, i) }),
      }),
    },
    {
      name: "transactions/info by txid",
      engine: async (db, m, i) => lookUpTransaction(db, m, { txid: pick(s.txids, i) }),
      request: (i) => ({
        path: "/api/v2/transactions/info",
        body: JSON.stringify({ txid: pick(s.txids, i) }),
      }),
    },
  ];
}

/** A Drizzle instance over a raw client that records every query it runs. */
function capturingDb(client: PGlite | pg.Pool, captured: { sql: string; params: unknown[] }[]): Db {
  const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) };
  return (client instanceof PGlite
    ? drizzlePglite(client, { schema, logger })
    : drizzlePg(client, { schema, logger })) as unknown as Db;
}

async function rawQuery(client: PGlite | pg.Pool, text: string, params: unknown[] = []) {
  const result =
    client instanceof PGlite
      ? await client.query(text, params)
      : await client.query(text, params as unknown[]);
  return result.rows as Record<string, unknown>[];
}

/** Sample identifiers to search for, spread over the whole history. */
async function sample(client: PGlite | pg.Pool, merchantId: number): Promise<Samples> {
  const rows = (sql: string) => rawQuery(client, sql, [merchantId]);
  const column = (list: Record<string, unknown>[], key: string) => list.map((r) => String(r[key]));
  const foreignIds = column(
    await rows(`select foreign_id from transactions where merchant_id = $1 and foreign_id is not null
                order by md5(id::text) limit 50`),
    "foreign_id",
  );
  const txids = column(
    await rows(`select txid from withdrawals where merchant_id = $1 and txid is not null
                order by md5(transaction_id::text) limit 50`),
    "txid",
  );
  const addresses = column(
    await rows(`select address from deposit_addresses where merchant_id = $1 and kind = 'invoice'
                order by md5(invoice_id::text) limit 50`),
    "address",
  );
  const ids = (
    await rows(`select id from transactions where merchant_id = $1 order by md5(id::text) limit 50`)
  ).map((r) => Number(r.id));
  const [middle] = await rows(
    `select id from transactions where merchant_id = $1 order by id offset (select count(*) / 2 from transactions where merchant_id = $1) limit 1`,
  );
  return { foreignIds, txids, addresses, ids, middleId: Number(middle!.id) };
}

async function explainAll(client: PGlite | pg.Pool, list: Scenario[], merchantId: number) {
  const plans: string[] = [];
  for (const scenario of list) {
    const captured: { sql: string; params: unknown[] }[] = [];
    await scenario.engine(capturingDb(client, captured), merchantId, 0);
    plans.push(`#### ${scenario.name}\n`);
    for (const query of captured) {
      const rows = await rawQuery(
        client,
        `explain (analyze, costs off, timing on, summary on) ${query.sql}`,
        query.params,
      );
      const text = rows.map((r) => String(Object.values(r)[0])).join("\n");
      plans.push(`\`\`\`\n${query.sql.replace(/\s+/g, " ").slice(0, 400)}\n--\n${text}\n\`\`\`\n`);
    }
  }
  return plans.join("\n");
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A GET, with a body when given (fetch cannot send one; transactions/info takes it, like its clients). */
function get(target: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        path: target,
        method: "GET",
        agent,
        headers: body ? { ...headers, "content-length": String(Buffer.byteLength(body)) } : headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          if (status !== 200) reject(new Error(`${target}: ${status} ${Buffer.concat(chunks).toString()}`));
          else resolve(status);
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function time(scenario: Scenario, cookie: string, credentials: Credentials) {
  const durations: number[] = [];
  for (let i = 0; i < REQUESTS + 20; i++) {
    const { path: target, body } = scenario.request(i);
    const headers: Record<string, string> = body
      ? {
          "content-type": "application/json",
          "x-processing-key": credentials.api_key,
          "x-processing-signature": createHmac("sha512", credentials.api_secret).update(body).digest("hex"),
        }
      : { cookie };
    const started = performance.now();
    const status = await get(target, headers, body);
    if (status !== 200) throw new Error(`${scenario.name}: ${status}`);
    if (i >= 20) durations.push(performance.now() - started); // the first 20 warm up
  }
  durations.sort((a, b) => a - b);
  return { p50: percentile(durations, 0.5), p95: percentile(durations, 0.95) };
}

function seed(env: Record<string, string>, transactions: number) {
  console.log(`seeding ${transactions.toLocaleString("en")} transactions (npm run seed:bulk)…`);
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [...TSX_FLAGS, "cli/seed-bulk.ts", "--transactions", String(transactions)],
    { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (result.status !== 0) throw new Error("seed:bulk failed");
  return Math.round((Date.now() - started) / 1000);
}

/**
 * One database: a fresh one seeded with `transactions` rows, or (with `existing`, a data directory
 * seed:bulk already filled; DATABASE_URL and KASSA_MASTER_KEY from the environment) a database as it is.
 */
async function measureOne(database: string, transactions: number, existing?: string) {
  const dataDir = existing ?? fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-explorer-"));
  const postgres = database === "pg" && !existing ? await startPostgres({ durable: true }) : undefined;
  const databaseUrl = postgres?.url ?? (existing ? process.env.DATABASE_URL : undefined);
  const env: Record<string, string> = {
    KASSA_DATA_DIR: dataDir,
    KASSA_MODE: "sandbox",
    KASSA_JOBS: "off",
    KASSA_RATE_LIMIT_PER_SECOND: "0",
    KASSA_SEED_DEMO: "0",
  };
  if (databaseUrl) {
    env.DATABASE_URL = databaseUrl;
    env.KASSA_MASTER_KEY = postgres ? randomBytes(32).toString("hex") : (process.env.KASSA_MASTER_KEY ?? "");
  }
  let server: ChildProcess | undefined;
  try {
    const seedSeconds = existing ? 0 : seed(env, transactions);
    const credentials: Credentials = JSON.parse(
      fs.readFileSync(path.join(dataDir, "bulk-credentials.json"), "utf8"),
    );
    const client = databaseUrl
      ? new pg.Pool({ connectionString: databaseUrl, max: 2 })
      : await PGlite.create(path.join(dataDir, "pgdata"));
    const samples = await sample(client, credentials.merchant_id);
    const week = new Date(Date.now() - 120 * 86_400_000);
    const days = {
      from: week.toISOString().slice(0, 10),
      to: new Date(week.getTime() + 6 * 86_400_000).toISOString().slice(0, 10),
    };
    const list = scenarios(samples, days);
    const plans = await explainAll(client, list, credentials.merchant_id);
    await (client instanceof PGlite ? client.close() : client.end());

    server = await startServer(PORT, env);
    const cookie = await signIn(`http://127.0.0.1:${PORT}`, credentials);
    const results = [];
    for (const scenario of list)
      results.push({ name: scenario.name, ...(await time(scenario, cookie, credentials)) });
    return { label: database === "pg" ? "PostgreSQL" : "PGlite", seedSeconds, results, plans };
  } finally {
    if (server) await stopServer(server);
    postgres?.stop();
    if (!existing) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function measureExplorer(input: {
  transactions: number;
  databases: string[];
  existing?: string;
}): Promise<string> {
  const runs = [];
  for (const database of input.databases)
    runs.push(await measureOne(database, input.transactions, input.existing));
  const seeded = runs.filter((run) => run.seedSeconds > 0);
  const lines = [
    `#### Explorer and lookups with ${input.transactions.toLocaleString("en")} transactions on one merchant`,
    "",
    `Sequential requests (one user), ${REQUESTS} per scenario after 20 warm-up requests; the explorer's JSON API with a dashboard session, transactions/info signed.`,
    "",
    "| database | scenario | p50 ms | p95 ms |",
    "|---|---|---:|---:|",
  ];
  for (const run of runs) {
    for (const r of run.results)
      lines.push(`| ${run.label} | ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} |`);
  }
  lines.push("");
  for (const run of seeded) lines.push(`- seed:bulk on ${run.label}: ${run.seedSeconds} s`);
  for (const run of runs) {
    lines.push(
      "",
      `<details><summary>EXPLAIN ANALYZE on ${run.label}</summary>`,
      "",
      run.plans,
      "</details>",
    );
  }
  return lines.join("\n");
}

if (process.argv[1]?.endsWith("explorer.ts")) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 && args[index + 1] ? args[index + 1]! : fallback;
  };
  const db = option("db", "pg");
  spawnSync(process.execPath, [path.join(root, "scripts", "ensure-build.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  console.log(
    await measureExplorer({
      transactions: Number(option("transactions", "1000000")),
      databases: db === "both" ? ["pglite", "pg"] : [db],
      existing: args.includes("--existing") ? option("existing", "") : undefined,
    }),
  );
}
