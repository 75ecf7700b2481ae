import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { loadConfig } from "@/lib/config";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { parseCliArgs } from "../../cli/command";
import { runCli } from "../../cli/run";
import { TSX_FLAGS } from "../../scripts/tsx-flags.mjs";
import { waitUntil } from "../support/wait";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

export const driver: "pglite" | "pg" = process.env.KASSA_TEST_DATABASE_URL ? "pg" : "pglite";

/**
 * A port the OS says is free. Ports come from the kernel's ephemeral range (32768-60999 here), so
 * system tests never meet the fixed ports other test runs use (Playwright's KASSA_E2E_PORT, 3000).
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** One installation: its data directory, its database (a fresh PostgreSQL database when testing on PG), its key. */
export async function createInstallation() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-system-"));
  const env: Record<string, string> = {
    KASSA_DATA_DIR: dataDir,
    KASSA_MODE: "sandbox",
    KASSA_SANDBOX_BLOCK_SECONDS: "0",
    KASSA_SEED_DEMO: "0",
    KASSA_MASTER_KEY: randomBytes(32).toString("hex"),
    NODE_ENV: "production",
  };
  let dropDatabase = async () => {};
  if (driver === "pg") {
    const name = `kassa_system_${randomBytes(5).toString("hex")}`;
    const admin = await openDatabase({ kind: "pg", url: process.env.KASSA_TEST_DATABASE_URL!, poolSize: 1 });
    await admin.db.execute(sql.raw(`create database ${name}`));
    const url = new URL(process.env.KASSA_TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDatabase = async () => {
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    };
  }
  return {
    env,
    dataDir,
    /** The database, opened by the test (on PGlite only while no server holds the directory). */
    open: (): Promise<DatabaseHandle> =>
      driver === "pg"
        ? openDatabase({ kind: "pg", url: env.DATABASE_URL!, poolSize: 4 })
        : openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pgdata") }),
    cleanup: async () => {
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Installation = Awaited<ReturnType<typeof createInstallation>>;

export type KassaProcess = { process: ChildProcess; port: number; base: string; log: string[] };

/** Starts `server.ts` (or `worker.ts`) and waits until it answers (servers) or says it runs (worker). */
export async function startKassa(
  installation: Installation,
  options: { entry?: "server.ts" | "worker.ts"; env?: Record<string, string> } = {},
): Promise<KassaProcess> {
  const entry = options.entry ?? "server.ts";
  const port = await freePort();
  const log: string[] = [];
  const child = spawn(process.execPath, [...TSX_FLAGS, entry], {
    cwd: root,
    env: { ...process.env, ...installation.env, PORT: String(port), HOST: "127.0.0.1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const isReady = () =>
    entry === "worker.ts"
      ? log.join("").includes("worker running")
      : fetch(`${base}/api/v2/ping`, { signal: AbortSignal.timeout(2_000) }).then(
          (r) => r.ok,
          () => false,
        );
  let outcome: "ready" | "exited";
  try {
    outcome = await waitUntil(
      async () => (child.exitCode !== null ? "exited" : (await isReady()) && "ready"),
      { what: `${entry} answers on port ${port}`, timeoutMs: 90_000, intervalMs: 100 },
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}; its output:\n${log.join("")}`);
  }
  if (outcome === "exited") throw new Error(`${entry} exited early:\n${log.join("")}`);
  return { process: child, port, base, log };
}

export async function kill(kassa: KassaProcess, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
  if (kassa.process.exitCode !== null || kassa.process.signalCode !== null) return;
  const exited = new Promise((resolve) => kassa.process.once("exit", resolve));
  kassa.process.kill(signal);
  await exited;
}

/**
 * An ops CLI command against an installation, for setup and for waiting on what it reports: the
 * CLI's own argument parsing and dispatch (cli/run.ts), in this process: through the running server
 * on PGlite, directly on PostgreSQL, as the CLI process does. A Node process per command cost about
 * 2 s of CPU, a third of the system tests' CPU. Tests whose subject is the CLI run it as a process
 * (`cliProcess`, `cliRefused`).
 */
export async function cli(installation: Installation, ...args: string[]): Promise<Record<string, unknown>> {
  const output = await runCli(
    parseCliArgs(args).command,
    loadConfig({ ...process.env, ...installation.env, NODE_ENV: "production" }),
  );
  if (!output.ok) throw new Error(`cli ${args.join(" ")}: ${output.error.code}: ${output.error.message}`);
  // As the process prints it (--json): what a script reading it gets.
  return JSON.parse(JSON.stringify(output.result));
}

/** The ops CLI as a process, exactly as an operator runs it: its `--json` output. */
export async function cliProcess(
  installation: Installation,
  ...args: string[]
): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [...TSX_FLAGS, "cli/index.ts", ...args, "--json"], {
    cwd: root,
    timeout: 60_000,
    env: { ...process.env, ...installation.env, NODE_ENV: "production" },
  });
  return JSON.parse(stdout);
}

/** The arguments of `cli compliance refund` for a review and the refund's transaction hash. */
export const complianceRefundArgs = (reviewId: number, txid: string) => [
  "compliance",
  "refund",
  "--review",
  String(reviewId),
  "--txid",
  txid,
];

/** A CLI command expected to fail: its exit code and what it wrote to stderr (stdout is not read). */
export async function cliRefused(
  installation: Installation,
  ...args: string[]
): Promise<{ code: number; stderr: string }> {
  return run(process.execPath, [...TSX_FLAGS, "cli/index.ts", ...args], {
    cwd: root,
    timeout: 60_000,
    env: { ...process.env, ...installation.env, NODE_ENV: "production" },
  }).then(
    () => ({ code: 0, stderr: "" }),
    (error: { code: number; stderr: string }) => error,
  );
}

export type Credentials = {
  merchantId: number;
  key: string;
  secret: string;
  email: string;
  password: string;
};

export async function newMerchant(installation: Installation, name = "System Shop"): Promise<Credentials> {
  const email = `${randomBytes(6).toString("hex")}@example.com`;
  const password = "a long password 1";
  const created = await cli(
    installation,
    "merchants",
    "create",
    "--name",
    name,
    "--email",
    email,
    "--password",
    password,
  );
  return {
    merchantId: Number(created.merchant_id),
    key: String(created.api_key),
    secret: String(created.api_secret),
    email,
    password,
  };
}

/**
 * A dashboard session for a merchant, as a browser gets one (next-auth's credentials flow): the
 * cookies to send. Mutations also need an Origin of the server itself (the same-origin check).
 */
export async function signIn(
  base: string,
  credentials: { email: string; password: string },
): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`, { signal: AbortSignal.timeout(20_000) });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const login = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    signal: AbortSignal.timeout(20_000),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({
      csrfToken,
      email: credentials.email,
      password: credentials.password,
      json: "true",
    }),
  });
  const session = login.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (!session.some((c) => c?.includes("session-token"))) throw new Error(`sign-in failed: ${login.status}`);
  return [...cookies, ...session].join("; ");
}

/**
 * Confirms a dashboard session with the user's password, as the dashboard's dialog does: its
 * sensitive changes (lib/team/sensitive-actions.ts) then go through for the step-up window.
 */
export async function stepUp(base: string, cookie: string, password: string): Promise<void> {
  const answer = await fetch(`${base}/api/dashboard/step-up`, {
    method: "POST",
    signal: AbortSignal.timeout(20_000),
    headers: { "content-type": "application/json", cookie, origin: base },
    body: JSON.stringify({ password }),
  });
  if (answer.status !== 200) throw new Error(`step-up failed: ${answer.status} ${await answer.text()}`);
}

/** A signed request exactly as a merchant's server sends it. */
export async function signed(
  base: string,
  credentials: Credentials,
  path: string,
  body: string,
  method = "POST",
  timeoutMs = 20_000,
) {
  const response = await fetch(`${base}/api/v2${path}`, {
    method,
    body,
    // Every wait has a deadline: a stuck request fails the test with its step, instead of hanging it.
    signal: AbortSignal.timeout(timeoutMs),
    headers: {
      "content-type": "application/json",
      "x-processing-key": credentials.key,
      "x-processing-signature": createHmac("sha512", credentials.secret).update(body).digest("hex"),
    },
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    json: json as Record<string, unknown> & { data?: Record<string, unknown> },
    text,
  };
}

export const invoiceBody = (foreignId: string, overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    end_user_reference: "system-customer",
    timer: true,
    title: "System test",
    foreign_id: foreignId,
    currency: "BTC",
    amount: "0.001",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    sender_currency: "BTC",
    ...overrides,
  });

export const withdrawalBody = (foreignId: string, overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    currency: "LTC",
    amount: "0.1",
    address: "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh",
    foreign_id: foreignId,
    end_user_reference: "system-payee",
    sender_type: "legal",
    sender_data: { legal_name: "System Shop GmbH", country_of_registration: "DEU" },
    receiver_type: "self",
    ...overrides,
  });

/** A real HTTP endpoint standing in for a merchant's callback URL: answers 200 and counts deliveries per callback id. */
export async function startCallbackReceiver() {
  const deliveries = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["x-kassa-callback-id"]);
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return { deliveries, url: `http://127.0.0.1:${port}/hook`, close: () => server.close() };
}

/** A merchant whose callbacks go to `callbackUrl`, with sandbox funds. */
export async function fundedMerchant(
  installation: Installation,
  funds: [string, string][],
  callbackUrl?: string,
) {
  const merchant = await newMerchant(installation);
  if (callbackUrl)
    await cli(
      installation,
      "merchants",
      "set-callback",
      "--merchant",
      String(merchant.merchantId),
      "--url",
      callbackUrl,
    );
  for (const [currency, amount] of funds) {
    await cli(
      installation,
      "sandbox",
      "credit",
      "--merchant",
      String(merchant.merchantId),
      "--currency",
      currency,
      "--amount",
      amount,
    );
  }
  return merchant;
}

/** Progress lines for long system tests, so a failure in CI shows the step it reached. */
export function step(message: string): void {
  console.log(`[${new Date().toISOString().slice(11, 23)}] ${message}`);
}
