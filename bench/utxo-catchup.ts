import { randomBytes } from "node:crypto";
import { bech32 } from "@scure/base";
import { sql } from "drizzle-orm";
import { connectUtxoNetwork } from "@/lib/chain/utxo/utxo-network";
import { type UtxoWatcherState, watchUtxoChain } from "@/lib/chain/utxo/watch-utxo-chain";
import { SecretBox } from "@/lib/crypto/secret-box";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { openDatabase, queryRows } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { seedRates } from "@/lib/rates/rates";
import { isLitecoindInstalled, litecoinRpc, startLitecoind } from "../scripts/litecoind.mjs";
import { startPostgres } from "../scripts/postgres.mjs";
import { benchPricing } from "./pricing";

/**
 * The Litecoin watcher's catch-up, the Litecoin column of `npm run bench:chain`: a backlog of BLOCKS
 * blocks on a real litecoind in regtest holding DEPOSITS payments among WATCHED watched addresses,
 * processed from the cursor to the tip in one pass (one `getblock` per block). Records blocks per
 * second, RPC calls per block, and the time from a payment reaching the node's mempool to its
 * invoice being `processing` after one pass (the watcher polls every 2 s: add up to that in production).
 */
const BLOCKS = Number(process.env.KASSA_BENCH_BLOCKS ?? 2_000);
const DEPOSITS = Number(process.env.KASSA_BENCH_DEPOSITS ?? 1_000);
const WATCHED = Number(process.env.KASSA_BENCH_WATCHED ?? 100_000);
const PER_TX = 10;

/** The i-th watched address: a regtest segwit v0 address of a made-up 20-byte program. */
const addressOf = (i: number) =>
  bech32.encode("rltc", [0, ...bech32.toWords(Buffer.from(i.toString(16).padStart(40, "0"), "hex"))]);

export async function benchLitecoin() {
  if (!isLitecoindInstalled()) {
    console.log(JSON.stringify({ litecoin: "litecoind is not installed (sudo apt-get install litecoind)" }));
    return;
  }
  const node = await startLitecoind();
  const postgres = process.env.KASSA_BENCH_POSTGRES === "1" ? await startPostgres() : undefined;
  const handle = await openDatabase(
    postgres ? { kind: "pg", url: postgres.url, poolSize: 4 } : { kind: "pglite" },
  );
  const rpc = <T>(method: string, params: unknown[] = []) => litecoinRpc<T>(node, method, params);
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
    const addresses = Array.from({ length: WATCHED }, (_, i) => addressOf(i + 1));
    for (let start = 0; start < WATCHED; start += 10_000) {
      const slice = addresses.slice(start, start + 10_000);
      await db.execute(
        sql`insert into deposit_addresses (merchant_id, currency, network, address, derivation_path, kind, foreign_id)
            select ${merchantId}, 'LTC', 'litecoin', a, 'bench', 'permanent', 'bench:' || a
            from unnest(${`{${slice.join(",")}}`}::text[]) as a`,
      );
    }
    console.error(`[bench] ${WATCHED} watched addresses inserted`);
    const own = await rpc<string>("getnewaddress", ["", "bech32"]);
    await rpc("generatetoaddress", [101 + Math.ceil(DEPOSITS / PER_TX / 50), own]);
    const network = await connectUtxoNetwork("LTC", { rpcUrl: node.url, confirmations: 6 }, "sandbox");
    const state: UtxoWatcherState = { examined: new Set() };
    await watchUtxoChain(db, { network, pricing: benchPricing, state }); // the cursor at the current tip

    // The backlog: DEPOSITS payments in transactions of PER_TX outputs, spread evenly over BLOCKS blocks.
    const batches = Math.ceil(DEPOSITS / PER_TX);
    const gap = Math.max(0, Math.floor(BLOCKS / batches) - 1);
    const start = await rpc<number>("getblockcount");
    for (let batch = 0; batch < batches; batch++) {
      const outputs: Record<string, string> = {};
      for (let i = 0; i < PER_TX; i++)
        outputs[addresses[(batch * PER_TX + i) * Math.floor(WATCHED / DEPOSITS)]!] = "0.02000000";
      await rpc("sendmany", ["", outputs]);
      await rpc("generatetoaddress", [1 + gap, own]);
    }
    const tip = await rpc<number>("getblockcount");
    const backlog = tip - start;
    console.error(`[bench] backlog of ${backlog} blocks built`);

    const began = performance.now();
    const pass = await watchUtxoChain(db, { network, pricing: benchPricing, state });
    const seconds = (performance.now() - began) / 1000;
    const [found] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from deposits`);

    // At the tip: a fresh payment reaches the mempool, then one pass; the time until it is `processing`.
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await rpc("sendtoaddress", [addresses[WATCHED - 1 - i]!, "0.05000000"]);
      await watchUtxoChain(db, { network, pricing: benchPricing, state });
      latencies.push(performance.now() - t0);
    }
    const [seen] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from deposits d join transactions t on t.id = d.transaction_id
          where t.status = 'processing'`,
    );
    latencies.sort((a, b) => a - b);
    return {
      database: postgres ? "postgresql" : "pglite",
      watched_addresses: WATCHED,
      backlog_blocks: backlog,
      deposits_in_backlog: DEPOSITS,
      deposits_found: found!.n,
      seconds: Number(seconds.toFixed(2)),
      blocks_per_second: Math.round(backlog / seconds),
      rpc_calls: pass.calls,
      rpc_calls_per_block: Number((pass.calls / backlog).toFixed(2)),
      blocks_stored: pass.blocks,
      mempool_payments_processing: seen!.n,
      mempool_to_processing_ms: { p50: Math.round(latencies[10]!), p95: Math.round(latencies[18]!) },
    };
  } finally {
    await handle.close();
    postgres?.stop();
    await node.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchLitecoin(), null, 2));
