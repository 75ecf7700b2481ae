import { execFile } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import {
  type APIRequestContext,
  type APIResponse,
  test as base,
  expect,
  request as playwrightRequest,
} from "@playwright/test";
import { parseCliArgs, sendToServer } from "../cli/command";
import { baseURL, e2eDataDir } from "../playwright.config";
import { TSX_FLAGS } from "../scripts/tsx-flags.mjs";
import { startReceiver } from "../tests/support/receiver";

/**
 * Sends an ops CLI command to the e2e server, the way the CLI does when a server holds the data
 * directory (cli/index.ts): the command read from the same arguments by the CLI's own code
 * (cli/command.ts), sent with the token from the server's lock file, answered by the server's CLI
 * bridge. Without starting a Node process for each: that cost about 2 s of CPU a call, for setup
 * every test needs. The CLI process itself runs against a live server in the system tests
 * (tests/system/harness.ts).
 */
export async function cli(...args: string[]): Promise<Record<string, unknown>> {
  return cliOn(projectDataDir(), ...args);
}

/** Credits a merchant's sandbox balance through the ops CLI (`sandbox credit`), as test setup. */
export async function sandboxCredit(merchantId: number | string, currency: string, amount: string) {
  return cli(
    "sandbox",
    "credit",
    "--merchant",
    String(merchantId),
    "--currency",
    currency,
    "--amount",
    amount,
  );
}

/** The base URL of the server the current project tests. */
export function projectBaseURL(): string {
  return base.info().project.use.baseURL ?? baseURL;
}

/** The data directory of the server the current project tests (playwright.config.ts). */
export function projectDataDir(): string {
  const dataDir = base.info().project.metadata.dataDir;
  return typeof dataDir === "string" ? dataDir : e2eDataDir;
}

/** The CLI against a given server's data directory (the e2e servers each have their own). */
export async function cliOn(dataDir: string, ...args: string[]): Promise<Record<string, unknown>> {
  const { command } = parseCliArgs(args);
  // The lock file the server holds (lib/db/data-dir-lock.ts): its port and the CLI's token.
  const holder = JSON.parse(readFileSync(path.join(dataDir, "kassa.lock"), "utf8")) as {
    port: number;
    token: string;
  };
  const output = await sendToServer(holder.port, holder.token, command);
  if (!output.ok) throw new Error(`cli ${args.join(" ")}: ${output.error.code}: ${output.error.message}`);
  return output.result;
}

const run = promisify(execFile);

/**
 * The ops CLI as a process, exactly as an operator runs it, for tests whose subject is the CLI: what
 * it prints and how it fails (it rejects with the process's `stdout`, the CLI's `--json` error).
 */
export async function cliProcess(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [...TSX_FLAGS, "cli/index.ts", ...args, "--json"], {
    env: { ...process.env, KASSA_DATA_DIR: projectDataDir(), KASSA_MODE: "sandbox" },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/**
 * Chains kept still for tests that assert a payment is not confirmed yet. Any test may mine BTC or
 * LTC blocks on a shared server at any moment, and a block confirms every payment waiting in that
 * currency's mempool, whoever sent it. So a test that must see a payment unconfirmed pays in:
 * - `UNMINED`, a currency no test ever mines, when it never needs the payment confirmed;
 * - its own entry of `OWN_CHAIN` when it mines the payment itself later: no other test mines that
 *   currency. The api and ui projects share one server, so one entry serves one test of either.
 */
export const UNMINED = "DOGE";
export const OWN_CHAIN = {
  /** e2e/api/invoices.spec.ts: created → pending → processing → confirmed. */
  invoiceLifeCycle: "BCH",
  /** e2e/api/invoice-life-cycle.spec.ts: cancelling a processing invoice. */
  cancelProcessing: "TRX",
  /** e2e/api/checkout-stream.spec.ts: the payment, then its confirmations, on a live stream. */
  checkoutStream: "USDTT",
  /** e2e/ui/csp.spec.ts: the checkout's "Payment received", then "Invoice paid". */
  cspWalk: "ETH",
} as const;

export type Merchant = {
  merchantId: number;
  apiKey: string;
  apiSecret: string;
  email: string;
  password: string;
};

export async function createMerchant(name = "E2E Shop", dataDir = projectDataDir()): Promise<Merchant> {
  const email = `shop-${randomBytes(6).toString("hex")}@example.com`;
  const password = `pw-${randomBytes(12).toString("hex")}`;
  const created = await cliOn(
    dataDir,
    "merchants",
    "create",
    "--name",
    name,
    "--email",
    email,
    "--password",
    password,
  );
  if (typeof created.merchant_id !== "number")
    throw new Error(`merchant not created: ${JSON.stringify(created)}`);
  return {
    merchantId: created.merchant_id,
    apiKey: String(created.api_key),
    apiSecret: String(created.api_secret),
    email,
    password,
  };
}

export function sign(body: string | Buffer, secret: string): string {
  return createHmac("sha512", secret).update(body).digest("hex");
}

export type SignedClient = {
  merchant: Merchant;
  /** Sends `body` byte for byte, signed with the merchant's secret (or `headers` overrides). */
  send: (
    method: "GET" | "POST",
    path: string,
    body?: string,
    headers?: Record<string, string | undefined>,
  ) => Promise<APIResponse>;
  post: (path: string, payload?: unknown) => Promise<APIResponse>;
};

export function signedClient(request: APIRequestContext, merchant: Merchant): SignedClient {
  const send: SignedClient["send"] = (method, path, body = "", headers = {}) => {
    const allHeaders: Record<string, string> = {
      "content-type": "application/json",
      "x-processing-key": merchant.apiKey,
      "x-processing-signature": sign(body, merchant.apiSecret),
    };
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) delete allHeaders[name];
      else allHeaders[name] = value;
    }
    // A Buffer, so Playwright sends the bytes as they are (it would JSON-encode a string that is
    // not valid JSON, and the signature would no longer match what was sent).
    return request.fetch(`/api/v2${path}`, { method, data: Buffer.from(body), headers: allHeaders });
  };
  return { merchant, send, post: (path, payload = {}) => send("POST", path, JSON.stringify(payload)) };
}

/** Points a merchant's callbacks at `url` with the ops CLI, as an operator does (DESIGN.md section 8). */
export async function setCallbackUrl(
  merchant: Merchant,
  url: string,
  dataDir = projectDataDir(),
): Promise<void> {
  await cliOn(dataDir, "merchants", "set-callback", "--merchant", String(merchant.merchantId), "--url", url);
}

/** A signed-in dashboard session, as a browser gets one (next-auth's credentials flow). */
export async function dashboardSession(merchant: Merchant): Promise<APIRequestContext> {
  const url = projectBaseURL();
  const context = await playwrightRequest.newContext({ baseURL: url, extraHTTPHeaders: { origin: url } });
  const { csrfToken } = await (await context.get("/api/auth/csrf")).json();
  const login = await context.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: merchant.email, password: merchant.password, json: "true" },
    maxRedirects: 0,
  });
  expect(login.status()).toBeLessThan(400);
  return context;
}

/**
 * Opens the session's step-up window with the user's password (or authenticator `code`), as the
 * dashboard's confirmation dialog does: its sensitive changes then go through for 5 minutes.
 */
export async function stepUp(session: APIRequestContext, answer: { password?: string; code?: string }) {
  const confirmed = await session.post("/api/dashboard/step-up", { data: answer });
  expect(confirmed.status(), JSON.stringify(await confirmed.json())).toBe(200);
}

/** A real local HTTP server standing in for the merchant's callback endpoint (tests/support/receiver.ts). */
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * Each test gets its own merchant and a client signing as it: tests never share state. A test that
 * asks for `receiver` gets a real callback receiver set as that merchant's callback URL, closed after it.
 */
export const test = base.extend<{ merchant: Merchant; client: SignedClient; receiver: Receiver }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
  merchant: async ({}, use) => {
    await use(await createMerchant());
  },
  client: async ({ request, merchant }, use) => {
    await use(signedClient(request, merchant));
  },
  receiver: async ({ merchant }, use) => {
    const receiver = await startReceiver();
    try {
      await setCallbackUrl(merchant, receiver.url());
      await use(receiver);
    } finally {
      await receiver.close();
    }
  },
});

export { expect } from "@playwright/test";
