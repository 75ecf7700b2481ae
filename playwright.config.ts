import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from "./e2e/chromium";

/**
 * Three projects (as dub does): `api` drives the merchant API with signed requests and no browser;
 * `api-next` runs the same files against a server with the /api/v2 fast path off, so both ways a
 * request can take (server/serve-api-route.ts, and Next.js's pipeline) pass the same suite; `ui`
 * drives Debian's Chromium. All run against the production build served by server.ts on a fresh
 * embedded database, the way `npm start` runs Kassa.
 */
const port = Number(process.env.KASSA_E2E_PORT ?? 3199);
export const e2eDataDir = path.join(os.tmpdir(), `kassa-e2e-${port}`);
export const baseURL = `http://127.0.0.1:${port}`;
/** A second server whose invoices expire after 8 seconds, for the expiry tests. */
export const shortTimer = {
  port: port - 1,
  dataDir: path.join(os.tmpdir(), `kassa-e2e-${port - 1}`),
  baseURL: `http://127.0.0.1:${port - 1}`,
  seconds: 8,
};

/**
 * A server (and so a sandbox chain) for one test only: no other test mines blocks on it. It sends
 * its e-mail over SMTP to `smtpPort`, where the sign-up and password-reset tests listen
 * (e2e/ui/auth-mail.spec.ts) to follow the links a merchant would get.
 */
export const quiet = {
  port: port - 2,
  dataDir: path.join(os.tmpdir(), `kassa-e2e-${port - 2}`),
  baseURL: `http://127.0.0.1:${port - 2}`,
  smtpPort: port + 1000,
};

/** The server behind the `api-next` project: every /api/v2 request through Next.js's pipeline. */
export const nextPipeline = {
  port: port - 3,
  dataDir: path.join(os.tmpdir(), `kassa-e2e-${port - 3}`),
  baseURL: `http://127.0.0.1:${port - 3}`,
};

export const serverEnv = (serverPort: number, dataDir: string) => ({
  NODE_ENV: "production",
  PORT: String(serverPort),
  HOST: "127.0.0.1",
  KASSA_DATA_DIR: dataDir,
  KASSA_MODE: "sandbox",
  // Tests mine blocks themselves, so every step is deterministic.
  KASSA_SANDBOX_BLOCK_SECONDS: "0",
  // A payment from an address on it is held for compliance review (e2e/ui/reviews.spec.ts).
  KASSA_SCREENING_DENYLIST: path.resolve("e2e/screening-denylist.txt"),
});

/**
 * A server watching a real Ethereum node (anvil), started by the one spec that pays on it
 * (e2e/ui/refund-claim-anvil.spec.ts) with the node it starts, not by the global setup.
 */
export const onAnvil = {
  port: port - 4,
  dataDir: path.join(os.tmpdir(), `kassa-e2e-${port - 4}`),
  baseURL: `http://127.0.0.1:${port - 4}`,
};

/** The servers the tests run against (started by e2e/servers.ts), each on a fresh data directory. */
export const e2eServers: { port: number; dataDir: string; env: Record<string, string> }[] = [
  { port, dataDir: e2eDataDir, env: serverEnv(port, e2eDataDir) },
  {
    ...shortTimer,
    env: {
      ...serverEnv(shortTimer.port, shortTimer.dataDir),
      KASSA_INVOICE_TIMER_SECONDS: String(shortTimer.seconds),
    },
  },
  {
    ...quiet,
    env: {
      ...serverEnv(quiet.port, quiet.dataDir),
      SMTP_URL: `smtp://127.0.0.1:${quiet.smtpPort}`,
      // Links in e-mails name the address the tests browse.
      KASSA_PUBLIC_URL: quiet.baseURL,
    },
  },
  {
    ...nextPipeline,
    env: { ...serverEnv(nextPipeline.port, nextPipeline.dataDir), KASSA_API_FAST_PATH: "off" },
  },
];

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  reporter: [
    ["list"],
    ["html", { open: "never", outputFolder: "playwright-report" }],
    ...(process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["json"] as ["json"]] : []),
  ],
  // No traces by default: recording them (a screencast and DOM snapshots of every step) cost a quarter
  // of the ui project's time. `npx playwright test --trace retain-on-failure` records them.
  use: { baseURL, trace: "off" },
  // The four servers start together (e2e/servers.ts): Playwright's webServer list starts one after
  // another, about 17 s each on two cores.
  globalSetup: "./e2e/servers.ts",
  projects: [
    // `metadata.dataDir` tells the fixtures (e2e/fixtures.ts) which server's CLI to run.
    { name: "api", testDir: "./e2e/api", metadata: { dataDir: e2eDataDir } },
    {
      // The request's way in, not the business rules behind it: signatures, headers, body limits and
      // GET bodies, the checkout's event stream, idempotency, access rules and real HTTP clients. The
      // rest of the API suite runs once, on the default path; both paths hand the request to the same
      // route handlers.
      name: "api-next",
      testDir: "./e2e/api",
      testMatch: [
        "access.spec.ts",
        "checkout-stream.spec.ts",
        "fast-path.spec.ts",
        "headers.spec.ts",
        "idempotency.spec.ts",
        "key-controls.spec.ts",
        "currencies-and-accounts.spec.ts",
        "real-clients.spec.ts",
        "signature.spec.ts",
      ],
      use: { baseURL: nextPipeline.baseURL },
      metadata: { dataDir: nextPipeline.dataDir },
    },
    {
      name: "ui",
      testDir: "./e2e/ui",
      use: {
        browserName: "chromium",
        launchOptions: {
          executablePath: TEST_CHROMIUM_PATH,
          args: CHROMIUM_FLAGS,
        },
      },
    },
  ],
});
