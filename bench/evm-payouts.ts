import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { createPublicClient, createWalletClient, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { deriveHotWallet } from "@/lib/chain/evm/payout/hot-wallet";
import { loadHdSeed } from "@/lib/chain/hd-seed";
import { SecretBox } from "@/lib/crypto/secret-box";
import { configureOffering } from "@/lib/currencies/offering";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { openDatabase, queryRows } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { jobHandlers, payoutAdapter } from "@/lib/host/job-handlers";
import { startJobRunner } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { seedRates } from "@/lib/rates/rates";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { startAnvil } from "../scripts/anvil.mjs";
import { startPostgres } from "../scripts/postgres.mjs";
import { benchPricing } from "./pricing";

/**
 * Payouts from one hot wallet: QUEUED ETH withdrawals accepted (the API's 201: committed,
 * their broadcast jobs queued) before the job runner starts, then the runner (the production one,
 * 4 jobs at once) signs and sends them all; payouts per second is QUEUED over the time from the
 * runner's start to the last broadcast. Then, with the runner idle and polling (every 250 ms), 20
 * withdrawals one at a time: the time from each 201 to its broadcast (withdrawals.created_at to
 * broadcast_at, both the database's clock). anvil mines each transaction at once.
 * `npm run bench:payouts` (PGlite), or with KASSA_BENCH_POSTGRES=1 on a throwaway PostgreSQL.
 */
const QUEUED = Number(process.env.KASSA_BENCH_PAYOUTS ?? 1_000);
const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

async function main() {
  const node = await startAnvil({ args: ["--gas-limit", "100000000"] });
  const postgres = process.env.KASSA_BENCH_POSTGRES === "1" ? await startPostgres() : undefined;
  const handle = await openDatabase(
    postgres ? { kind: "pg", url: postgres.url, poolSize: 8 } : { kind: "pglite" },
  );
  const client = createPublicClient({ chain: foundry, transport: http(node.url) }) as PublicClient;
  const box = new SecretBox(randomBytes(32));
  try {
    const { db } = handle;
    await runMigrations(handle);
    await syncCurrencies(db);
    await seedRates(db);
    configureOffering(undefined);
    const { merchantId } = await createMerchant(db, box, {
      name: "Bench",
      email: "bench@example.com",
      password: "long password 1",
    });
    await creditSandboxBalance(db, {
      merchantId,
      currency: "ETH",
      amount: parseDecimal("1000"),
      isSandbox: true,
    });
    const hotWallet = deriveHotWallet(await loadHdSeed(db, box)).address;
    const funder = createWalletClient({
      account: privateKeyToAccount(KEY),
      chain: foundry,
      transport: http(node.url),
    });
    await client.waitForTransactionReceipt({
      hash: await funder.sendTransaction({ to: hotWallet, value: 100n * 10n ** 18n }),
    });
    const evm = { rpcUrl: node.url, tokens: {}, confirmations: 1 };
    const handlers = jobHandlers({
      pricing: benchPricing,
      mail: { smtpUrl: undefined, from: "Kassa <bench@kassa.test>" },
      chain: payoutAdapter({ mode: "sandbox", evm, box }),
    });
    let counter = 0;
    const withdraw = () =>
      createWithdrawal(
        db,
        withdrawalInput(
          merchantId,
          withdrawalRequest.parse({
            currency: "ETH",
            amount: "0.01",
            address: privateKeyToAccount(generatePrivateKey()).address,
            foreign_id: `bench-${++counter}`,
            end_user_reference: "payee",
            sender_type: "legal",
            sender_data: { legal_name: "Bench GmbH", country_of_registration: "DEU" },
            receiver_type: "self",
          }),
          benchPricing,
        ),
      );
    const broadcastCount = async () =>
      (
        await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from withdrawals where broadcast_at is not null`,
        )
      )[0]!.n;

    const queueStart = performance.now();
    for (let i = 0; i < QUEUED; i++) await withdraw();
    const queueSeconds = (performance.now() - queueStart) / 1000;

    const runnerStart = performance.now();
    const runner = startJobRunner({ db, handlers, log: () => {} });
    while ((await broadcastCount()) < QUEUED) await new Promise((resolve) => setTimeout(resolve, 50));
    const seconds = (performance.now() - runnerStart) / 1000;
    const [span] = await queryRows<{ first: string; last: string }>(
      db,
      sql`select min(broadcast_at)::text as first, max(broadcast_at)::text as last from withdrawals`,
    );

    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { id } = await withdraw();
      while (true) {
        const [row] = await queryRows<{ ms: number | null }>(
          db,
          sql`select (extract(epoch from broadcast_at - created_at) * 1000)::float8 as ms
              from withdrawals where transaction_id = ${id}`,
        );
        if (row?.ms !== null && row?.ms !== undefined) {
          latencies.push(row.ms);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    await runner.stop();
    latencies.sort((a, b) => a - b);
    const nonces = await queryRows<{ n: number; distinct_nonces: number; max: string; min: string }>(
      db,
      sql`select count(*)::int as n, count(distinct nonce)::int as distinct_nonces,
                 max(nonce)::text as max, min(nonce)::text as min from evm_payouts`,
    );
    console.log(
      JSON.stringify(
        {
          database: postgres ? "postgresql" : "pglite",
          queued_withdrawals: QUEUED,
          seconds_to_queue: Number(queueSeconds.toFixed(2)),
          seconds_to_broadcast_all: Number(seconds.toFixed(2)),
          payouts_per_second: Number((QUEUED / seconds).toFixed(1)),
          first_to_last_broadcast: span,
          nonces: nonces[0],
          hot_wallet_transactions: await client.getTransactionCount({ address: hotWallet }),
          created_to_broadcast_ms_idle_runner: {
            p50: Math.round(latencies[10]!),
            p95: Math.round(latencies[18]!),
            max: Math.round(latencies[19]!),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await handle.close();
    postgres?.stop();
    await node.stop();
  }
}

await main();
