import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  type PublicClient,
  parseAbi,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import artifact from "@/contracts/TestToken.json";
import { EVM_NETWORK, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { SecretBox } from "@/lib/crypto/secret-box";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { openDatabase, queryRows } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { seedRates } from "@/lib/rates/rates";
import { startAnvil } from "../scripts/anvil.mjs";
import { startPostgres } from "../scripts/postgres.mjs";
import { benchPricing } from "./pricing";

/**
 * The EVM watcher's catch-up: a backlog of BLOCKS blocks on a real anvil holding DEPOSITS
 * token payments among WATCHED watched addresses, processed from the cursor to the tip in one pass.
 * Records blocks per second, RPC calls per block, and the time a pass at the tip takes to move a
 * fresh payment to `processing` (the watcher polls every 2 s, so add up to that in production).
 * `npm run bench:chain` (PGlite), or with KASSA_BENCH_POSTGRES=1 on a throwaway PostgreSQL.
 */
const BLOCKS = Number(process.env.KASSA_BENCH_BLOCKS ?? 10_000);
const DEPOSITS = Number(process.env.KASSA_BENCH_DEPOSITS ?? 1_000);
const WATCHED = Number(process.env.KASSA_BENCH_WATCHED ?? 100_000);
const PER_TX = 10;
const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ABI = parseAbi([
  "function mint(address to, uint256 value)",
  "function transferBatch(address[] to, uint256[] values) returns (bool)",
]);

async function main() {
  const node = await startAnvil({ args: ["--gas-limit", "100000000"] });
  const postgres = process.env.KASSA_BENCH_POSTGRES === "1" ? await startPostgres() : undefined;
  const handle = await openDatabase(
    postgres ? { kind: "pg", url: postgres.url, poolSize: 4 } : { kind: "pglite" },
  );
  let calls = 0;
  const client = createPublicClient({
    chain: foundry,
    transport: http(node.url, { onFetchRequest: () => void calls++ }),
  }) as PublicClient;
  try {
    const { db } = handle;
    await runMigrations(handle);
    await syncCurrencies(db);
    await seedRates(db);
    const { merchantId } = await createMerchant(db, new SecretBox(randomBytes(32)), {
      name: "Bench",
      email: "bench@example.com",
      password: "long password 1",
    });
    await db.execute(
      sql`insert into deposit_addresses (merchant_id, currency, network, address, derivation_path, kind, foreign_id)
          select ${merchantId}, 'USDTE', 'ethereum', '0x' || lpad(to_hex(i), 40, '0'), 'bench', 'permanent', 'bench:' || i
          from generate_series(1, ${WATCHED}) as i`,
    );

    const account = privateKeyToAccount(KEY);
    const wallet = createWalletClient({ account, chain: foundry, transport: http(node.url) });
    const deploy = await wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode as `0x${string}`,
      args: ["Test USDT", "USDT", 6],
    });
    const token = (await client.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: token,
        abi: ABI,
        functionName: "mint",
        args: [account.address, 10n ** 18n],
      }),
    });
    const network: EvmNetwork = {
      network: EVM_NETWORK,
      chainId: 31337,
      client,
      tokens: [{ currency: "USDTE", address: token.toLowerCase() as Address, decimals: 6 }],
      confirmations: { ETH: 12, USDTE: 12 },
    };
    await watchEvmChain(db, { network, pricing: benchPricing }); // the cursor at the current tip

    // The backlog: DEPOSITS payments in batches of PER_TX, spread evenly over BLOCKS blocks.
    const batches = Math.ceil(DEPOSITS / PER_TX);
    const gap = Math.max(0, Math.floor(BLOCKS / batches) - 1);
    const start = await client.getBlockNumber({ cacheTime: 0 });
    for (let batch = 0; batch < batches; batch++) {
      const recipients = Array.from(
        { length: PER_TX },
        (_, i) =>
          `0x${((batch * PER_TX + i) * Math.floor(WATCHED / DEPOSITS) + 1).toString(16).padStart(40, "0")}` as Address,
      );
      const hash = await wallet.writeContract({
        address: token,
        abi: ABI,
        functionName: "transferBatch",
        args: [recipients, recipients.map(() => 5_000_000n)],
      });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
      if (gap)
        await client.request({ method: "anvil_mine" as never, params: [`0x${gap.toString(16)}`] as never });
    }
    const tip = await client.getBlockNumber({ cacheTime: 0 });
    const backlog = Number(tip - start);

    calls = 0;
    const began = performance.now();
    const pass = await watchEvmChain(db, { network, pricing: benchPricing, state: { range: 1n } });
    const seconds = (performance.now() - began) / 1000;
    const [found] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from deposits`);

    // At the tip: a fresh payment, then one pass; the time until it is `processing`.
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const to = `0x${(WATCHED - i).toString(16).padStart(40, "0")}` as Address;
      await client.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          address: token,
          abi: ABI,
          functionName: "transferBatch",
          args: [[to], [1_000_000n]],
        }),
        pollingInterval: 5,
      });
      const t0 = performance.now();
      await watchEvmChain(db, { network, pricing: benchPricing });
      latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);
    console.log(
      JSON.stringify(
        {
          database: postgres ? "postgresql" : "pglite",
          watched_addresses: WATCHED,
          backlog_blocks: backlog,
          deposits_in_backlog: DEPOSITS,
          deposits_found: found!.n,
          seconds: Number(seconds.toFixed(2)),
          blocks_per_second: Math.round(backlog / seconds),
          rpc_calls: calls,
          rpc_calls_per_block: Number((calls / backlog).toFixed(2)),
          blocks_stored: pass.blocks,
          tip_pass_to_processing_ms: {
            p50: Math.round(latencies[10]!),
            p95: Math.round(latencies[18]!),
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
