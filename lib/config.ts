import "server-only";

import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseProxyRange } from "@/lib/auth/client-address";
import type { Pricing } from "@/lib/rates/pricing";
import { DEFAULT_APPROVAL_SECONDS } from "@/lib/withdrawals/approval-window";

/**
 * PostgreSQL connections per process: twice the cores plus one, the usual starting point. More
 * connections than the machine can run at once only queue inside the database, where waiters on a
 * hot row (a merchant's balance) wake in no fair order; measured on 2 cores (docs/BENCHMARKS.md),
 * 5 instead of 10 cut withdrawal p99 from 35 to 20 ms at the same throughput.
 */
/** KASSA_EVM_SWEEP_MINIMUMS when unset. */
const DEFAULT_SWEEP_MINIMUMS_TEXT = "ETH=0.01,USDTE=10,USDC=10";

function defaultPoolSize(): number {
  return Math.min(20, Math.max(4, os.availableParallelism() * 2 + 1));
}

/** `BTC=1,USDTE=5000`: an amount per currency code (compliance screening rules). */
const screeningLimits = z
  .string()
  .regex(
    /^[A-Z0-9]{2,10}=\d{1,12}(\.\d{1,8})?(,[A-Z0-9]{2,10}=\d{1,12}(\.\d{1,8})?)*$/,
    "must be CODE=amount pairs, e.g. BTC=1,USDTE=5000",
  )
  .optional()
  .or(z.literal("").transform(() => undefined));

/** A Bitcoin Core-family node: `http://user:password@host:port` (the message never echoes the value: it holds a password). */
const utxoRpcUrl = z
  .string()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an http://user:password@host:port URL of a Bitcoin Core-family node")
  .optional()
  .or(z.literal("").transform(() => undefined));

/**
 * The environment, parsed once. Every setting Kassa reads lives here, so a typo in a deployment
 * fails at start-up with a message instead of at the first request that needs it.
 */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  KASSA_DATA_DIR: z.string().min(1).default(".data"),
  KASSA_MASTER_KEY: z.string().optional(),
  KASSA_MODE: z.enum(["sandbox", "production"]).default("sandbox"),
  KASSA_PUBLIC_URL: z.url().optional(),
  KASSA_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024)
    .default(64 * 1024),
  KASSA_DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(defaultPoolSize()),
  KASSA_INVOICE_TIMER_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  KASSA_RATE_LOCK_SECONDS: z.coerce.number().int().min(1).max(86_400).optional(),
  KASSA_SANDBOX_BLOCK_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  KASSA_EXCHANGE_SPREAD_PPM: z.coerce.number().int().min(0).max(100_000).default(5_000),
  KASSA_WITHDRAWAL_APPROVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(DEFAULT_APPROVAL_SECONDS),
  KASSA_JOBS: z.enum(["on", "off"]).default("on"),
  KASSA_API_FAST_PATH: z.enum(["on", "off"]).default("on"),
  // Applied by the server itself before Next loads (server/source-maps.ts); validated here with the rest.
  KASSA_SOURCE_MAPS: z.enum(["on", "off"]).optional(),
  // Applied by the server and the worker at start (server/heap-growth.ts, with the same pattern: server.ts
  // loads nothing from lib/); validated here with the rest.
  KASSA_HEAP_GROWTH_PERCENT: z
    .string()
    .regex(/^(0|[1-9]\d|[1-3]\d\d|400)$/, "must be 0 or a whole number from 10 to 400")
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  KASSA_MAIL_FROM: z.string().min(3).default("Kassa <no-reply@kassa.test>"),
  KASSA_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).max(100_000).default(500),
  KASSA_RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  KASSA_CHECKOUT_STREAMS_PER_TOKEN: z.coerce.number().int().min(1).max(1_000_000).default(20),
  KASSA_CHECKOUT_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  KASSA_CHECKOUT_STREAMS_MAX: z.coerce.number().int().min(1).max(1_000_000).default(15_000),
  KASSA_JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  KASSA_SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(25),
  KASSA_JOB_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  KASSA_CALLBACK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  KASSA_CALLBACK_SCHEDULE: z
    .string()
    .regex(/^\d+(,\d+)*$/, "must be a comma-separated list of seconds")
    .optional(),
  KASSA_EVM_RPC_URL: z
    .string()
    .regex(/^https?:\/\//, "must be an http:// or https:// Ethereum JSON-RPC URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  KASSA_EVM_TOKENS: z
    .string()
    .regex(
      /^(USDTE|USDC)=0x[0-9a-fA-F]{40}(,(USDTE|USDC)=0x[0-9a-fA-F]{40})*$/,
      "must be a comma-separated list of CODE=0xCONTRACT with CODE USDTE or USDC (USDTE=0x…,USDC=0x…)",
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  KASSA_BTC_RPC_URL: utxoRpcUrl,
  KASSA_LTC_RPC_URL: utxoRpcUrl,
  KASSA_BTC_CONFIRMATIONS: z.coerce.number().int().min(1).max(1_000).optional(),
  KASSA_LTC_CONFIRMATIONS: z.coerce.number().int().min(1).max(1_000).optional(),
  KASSA_BTC_FALLBACK_FEE_RATE: z.coerce.number().int().min(1).max(10_000).optional(),
  KASSA_LTC_FALLBACK_FEE_RATE: z.coerce.number().int().min(1).max(10_000).optional(),
  KASSA_BTC_MAX_FEE_RATE: z.coerce.number().int().min(1).max(10_000).optional(),
  KASSA_LTC_MAX_FEE_RATE: z.coerce.number().int().min(1).max(10_000).optional(),
  KASSA_BTC_CONSOLIDATE_FEE_RATE: z.coerce.number().int().min(1).max(10_000).optional(),
  KASSA_LTC_CONSOLIDATE_FEE_RATE: z.coerce.number().int().min(1).max(10_000).optional(),
  KASSA_BTC_CONSOLIDATE_MIN_COINS: z.coerce.number().int().min(2).max(1_000).optional(),
  KASSA_LTC_CONSOLIDATE_MIN_COINS: z.coerce.number().int().min(2).max(1_000).optional(),
  KASSA_BTC_REPLACE_AFTER_SECONDS: z.coerce.number().int().min(1).max(604_800).optional(),
  KASSA_LTC_REPLACE_AFTER_SECONDS: z.coerce.number().int().min(1).max(604_800).optional(),
  KASSA_PAYOUT_BATCH_SECONDS: z.coerce.number().int().min(0).max(86_400).optional(),
  KASSA_METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  KASSA_EVM_CONFIRMATIONS: z.coerce.number().int().min(1).max(1_000).optional(),
  KASSA_EVM_MAX_FEE_GWEI: z.coerce.number().int().min(1).max(100_000).default(200),
  KASSA_EVM_REPLACE_AFTER_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  KASSA_EVM_SWEEP_MINIMUMS: z
    .string()
    .regex(
      /^(ETH|USDTE|USDC)=\d{1,12}(\.\d{1,8})?(,(ETH|USDTE|USDC)=\d{1,12}(\.\d{1,8})?)*$/,
      "must be CODE=amount pairs of ETH, USDTE or USDC, e.g. ETH=0.05,USDTE=50",
    )
    .default(DEFAULT_SWEEP_MINIMUMS_TEXT),
  KASSA_SCREENING_DENYLIST: z
    .string()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  KASSA_SCREENING_ALLOWLIST: z
    .string()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  KASSA_SCREENING_AMOUNT_LIMITS: screeningLimits,
  KASSA_SCREENING_NEW_CUSTOMER_LIMITS: screeningLimits,
  KASSA_TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every((entry) => parseProxyRange(entry) !== null), {
      message: "must be a comma-separated list of IP addresses or CIDR ranges",
    }),
  KASSA_SEED_DEMO: z
    .enum(["0", "1", "true", "false"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "1" || v === "true")),
});

type Env = z.infer<typeof EnvSchema>;

/**
 * Compliance screening (docs/compliance.md): operator list files (one address per line, `#` comments; read again
 * when they change) and rule thresholds in ledger units per currency.
 */
function screeningConfigOf(e: Env) {
  return {
    denylistPath: e.KASSA_SCREENING_DENYLIST && path.resolve(e.KASSA_SCREENING_DENYLIST),
    allowlistPath: e.KASSA_SCREENING_ALLOWLIST && path.resolve(e.KASSA_SCREENING_ALLOWLIST),
    /** A payment of at least this much of its currency scores as large. */
    amountLimits: parseAmountsPerCurrency(e.KASSA_SCREENING_AMOUNT_LIMITS),
    /** A customer's first payment of at least this much scores as a new customer's large payment. */
    newCustomerLimits: parseAmountsPerCurrency(e.KASSA_SCREENING_NEW_CUSTOMER_LIMITS),
  };
}
export type ScreeningConfig = ReturnType<typeof screeningConfigOf>;

/** The real EVM chain (DESIGN.md section 8), when KASSA_EVM_RPC_URL turns it on. */
function evmConfigOf(e: Env, rpcUrl: string) {
  return {
    rpcUrl,
    /**
     * The installation's mode: in sandbox mode a node on a main network is refused when it first
     * answers (lib/chain/assert-sandbox-network.ts).
     */
    mode: e.KASSA_MODE,
    /** Token contracts by currency code (USDTE, USDC); on chain id 1 the registry's mainnet contracts fill gaps. */
    tokens: parseEvmTokens(e.KASSA_EVM_TOKENS),
    /** Overrides the registry's confirmations for ETH, USDTE and USDC. */
    confirmations: e.KASSA_EVM_CONFIRMATIONS,
    /** The ceiling on a payout's EIP-1559 max fee per gas, in gwei. */
    maxFeeGwei: e.KASSA_EVM_MAX_FEE_GWEI,
    /** A payout not mined this long after it was signed is replaced with higher fees. */
    replaceAfterSeconds: e.KASSA_EVM_REPLACE_AFTER_SECONDS,
    /** A deposit address is swept once it holds at least this much of a currency, in ledger units. */
    sweepMinimums: parseAmountsPerCurrency(e.KASSA_EVM_SWEEP_MINIMUMS),
  };
}
type EvmSettings = ReturnType<typeof evmConfigOf>;
/**
 * What the EVM code reads of evmConfigOf's settings. Only the node, its tokens and confirmations
 * are required: code built without the environment (tests, benches) leaves the rest to their
 * defaults (a missing mode counts as sandbox; the fee ceiling 200 gwei; replacement after 300 s).
 */
export type EvmConfig = Pick<EvmSettings, "rpcUrl" | "tokens" | "confirmations"> & Partial<EvmSettings>;

export type UtxoCoin = "BTC" | "LTC";

/** A real UTXO chain (DESIGN.md section 8): its node, and what overrides the registry's defaults. */
function utxoConfigOf(e: Env, coin: UtxoCoin, rpcUrl: string) {
  return {
    /** With credentials: only the RPC client may read it (lib/chain/utxo/utxo-rpc.ts redacts it everywhere else). */
    rpcUrl,
    confirmations: e[`KASSA_${coin}_CONFIRMATIONS`],
    /** Payout fee rate in base units per virtual byte when the node has no estimate. */
    fallbackFeeRate: e[`KASSA_${coin}_FALLBACK_FEE_RATE`],
    /** The most a payout may pay per virtual byte: above it, payouts wait. */
    maxFeeRate: e[`KASSA_${coin}_MAX_FEE_RATE`],
    /** How long a payout may stay unmined before it is replaced by fee. */
    replaceAfterSeconds: e[`KASSA_${coin}_REPLACE_AFTER_SECONDS`],
    /** Merge small coins at or below this fee rate… */
    consolidateFeeRate: e[`KASSA_${coin}_CONSOLIDATE_FEE_RATE`],
    /** …when at least this many are spendable. */
    consolidateMinCoins: e[`KASSA_${coin}_CONSOLIDATE_MIN_COINS`],
  };
}
type UtxoSettings = ReturnType<typeof utxoConfigOf>;
/** What the UTXO code reads of utxoConfigOf's settings; as EvmConfig, only the node and confirmations are required. */
export type UtxoConfig = Pick<UtxoSettings, "rpcUrl" | "confirmations"> & Partial<UtxoSettings>;

/** Sweep a deposit address from these balances on (KASSA_EVM_SWEEP_MINIMUMS): below them the gas would eat too much. */
export const DEFAULT_SWEEP_MINIMUMS = parseAmountsPerCurrency(DEFAULT_SWEEP_MINIMUMS_TEXT);

/**
 * `ETH=0.05,USDTE=50` (already checked by the schema) as ledger units per currency (10^-8): the sweep
 * minimums and the screening limits. Absent or empty is none.
 */
export function parseAmountsPerCurrency(value: string | undefined): Record<string, bigint> {
  const amounts: Record<string, bigint> = {};
  if (!value) return amounts;
  for (const pair of value.split(",")) {
    const [code, amount] = pair.split("=") as [string, string];
    const [whole, fraction = ""] = amount.split(".");
    amounts[code] = BigInt(whole!) * 10n ** 8n + BigInt(fraction.padEnd(8, "0"));
  }
  return amounts;
}

export class ConfigError extends Error {}

function parseEvmTokens(value: string | undefined): Record<string, `0x${string}`> {
  const tokens: Record<string, `0x${string}`> = {};
  for (const pair of value ? value.split(",") : []) {
    const [code, address] = pair.split("=") as [string, `0x${string}`];
    if (tokens[code])
      throw new ConfigError(`Invalid environment:\n  KASSA_EVM_TOKENS: ${code} is given twice`);
    tokens[code] = address;
  }
  return tokens;
}

/**
 * Kassa's configuration: its type is what loadConfig builds from the schema above (which says what
 * each variable accepts and its default), so each setting is written in those two places only.
 */
export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join(".");
      return `  ${name}: ${issue.message.replaceAll(":attribute", name)}`;
    });
    throw new ConfigError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  for (const coin of ["BTC", "LTC"] as const)
    if (!env[`KASSA_${coin}_RPC_URL`] && env[`KASSA_${coin}_CONFIRMATIONS`])
      throw new ConfigError(
        `Invalid environment:\n  KASSA_${coin}_CONFIRMATIONS: needs KASSA_${coin}_RPC_URL, the node it applies to`,
      );
  // Token contracts or confirmations without a node are a half-configured chain: say so rather than
  // run on without it.
  const orphan = (["KASSA_EVM_TOKENS", "KASSA_EVM_CONFIRMATIONS"] as const).filter((name) => env[name]);
  if (!e.KASSA_EVM_RPC_URL && orphan.length > 0)
    throw new ConfigError(
      `Invalid environment:\n${orphan.map((name) => `  ${name}: needs KASSA_EVM_RPC_URL, the Ethereum node it applies to`).join("\n")}`,
    );
  const evm: EvmConfig | undefined = e.KASSA_EVM_RPC_URL ? evmConfigOf(e, e.KASSA_EVM_RPC_URL) : undefined;
  const utxo: Partial<Record<UtxoCoin, UtxoConfig>> = {};
  for (const coin of ["BTC", "LTC"] as const) {
    const rpcUrl = e[`KASSA_${coin}_RPC_URL`];
    if (rpcUrl) utxo[coin] = utxoConfigOf(e, coin, rpcUrl);
  }
  const screening = screeningConfigOf(e);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.KASSA_DATA_DIR),
    masterKey: e.KASSA_MASTER_KEY,
    mode: e.KASSA_MODE,
    isSandbox: e.KASSA_MODE === "sandbox",
    publicUrl: e.KASSA_PUBLIC_URL,
    bodyLimitBytes: e.KASSA_BODY_LIMIT_BYTES,
    poolSize: e.KASSA_DB_POOL_SIZE,
    // The demo merchant is a sandbox convenience: seeded by default only there.
    seedDemo: e.KASSA_SEED_DEMO ?? e.KASSA_MODE === "sandbox",
    /** How long a customer has to choose a currency, and then to pay, on an invoice with `timer: true`. */
    invoiceTimerSeconds: e.KASSA_INVOICE_TIMER_SECONDS,
    /** Sandbox chain: mine a block this often on every currency with unconfirmed payments; 0 turns it off. */
    sandboxBlockSeconds: e.KASSA_SANDBOX_BLOCK_SECONDS,
    /** The spread on conversions, and how long an invoice's rate holds without a timer (as long as a timer would, unless set). */
    pricing: {
      spreadPpm: e.KASSA_EXCHANGE_SPREAD_PPM,
      rateLockSeconds: e.KASSA_RATE_LOCK_SECONDS ?? e.KASSA_INVOICE_TIMER_SECONDS,
    } satisfies Pricing,
    /** How long a withdrawal over a limit waits for an approver before it is declined as expired. */
    withdrawalApprovalSeconds: e.KASSA_WITHDRAWAL_APPROVAL_SECONDS,
    /** Run background jobs in this process (turn off on app servers when a separate worker runs them). */
    runJobs: e.KASSA_JOBS === "on",
    /** Serve /api/v2 straight from the route handlers (server/serve-api-route.ts). */
    apiFastPath: e.KASSA_API_FAST_PATH === "on",
    smtpUrl: e.SMTP_URL,
    mailFrom: e.KASSA_MAIL_FROM,
    /** Signed API requests per second and key (per process); 0 turns the limit off. */
    rateLimitPerSecond: e.KASSA_RATE_LIMIT_PER_SECOND,
    rateLimitBurst: e.KASSA_RATE_LIMIT_BURST,
    /** Open checkout event streams allowed per invoice, per client address, and in the whole process. */
    checkoutStreams: {
      perToken: e.KASSA_CHECKOUT_STREAMS_PER_TOKEN,
      perAddress: e.KASSA_CHECKOUT_STREAMS_PER_ADDRESS,
      max: e.KASSA_CHECKOUT_STREAMS_MAX,
    },
    /** How long a claimed job stays invisible; a crashed worker's jobs run again after it. */
    jobLeaseSeconds: e.KASSA_JOB_LEASE_SECONDS,
    /**
     * On SIGTERM, how long requests in flight and running jobs get to finish before they are cut
     * (docs/OPERATIONS.md, "Stopping"). Under an orchestrator's own grace (Kubernetes gives 30 s).
     */
    shutdownGraceSeconds: e.KASSA_SHUTDOWN_GRACE_SECONDS,
    /** Finished jobs (done or failed) are deleted this many days after they finished. */
    jobRetentionDays: e.KASSA_JOB_RETENTION_DAYS,
    callbackTimeoutMs: e.KASSA_CALLBACK_TIMEOUT_MS,
    /** Seconds before each retry of a failed callback; the public API's schedule unless set (tests shorten it). */
    callbackScheduleSeconds: e.KASSA_CALLBACK_SCHEDULE?.split(",").map(Number),
    evm,
    /** The real Bitcoin and Litecoin nodes (KASSA_BTC_RPC_URL, KASSA_LTC_RPC_URL), by currency code. */
    utxo,
    /** KASSA_PAYOUT_BATCH_SECONDS: how long UTXO payouts wait to leave together; 0 sends each alone. */
    payoutBatchSeconds: e.KASSA_PAYOUT_BATCH_SECONDS ?? 0,
    /**
     * Proxies whose X-Forwarded-For is believed (addresses or CIDR ranges); none by default, so the
     * address a sign-in counts against is the connection's own unless a configured proxy vouches.
     */
    trustedProxies: e.KASSA_TRUSTED_PROXIES,
    /** The built-in screening provider's lists and rules (lib/compliance/list-screening-provider.ts). */
    screening,
    /** With it, /metrics answers only `Authorization: Bearer <token>` (loopback included); without it, loopback only. */
    metricsToken: e.KASSA_METRICS_TOKEN,
  };
}
