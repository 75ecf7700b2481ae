import { randomBytes } from "node:crypto";
import os from "node:os";
import { bech32 } from "@scure/base";
import { sql } from "drizzle-orm";
import { takeAddress } from "@/lib/addresses/take-address";
import { deriveAccountKeys } from "@/lib/chain/account-keys";
import { loadHdSeed } from "@/lib/chain/hd-seed";
import { trackUtxoPayouts } from "@/lib/chain/utxo/payout/track-utxo-payouts";
import { connectUtxoNetwork } from "@/lib/chain/utxo/utxo-network";
import { withUtxoNetwork } from "@/lib/chain/utxo/utxo-offering";
import { watchUtxoChain } from "@/lib/chain/utxo/watch-utxo-chain";
import type { Clock } from "@/lib/clock";
import type { UtxoConfig } from "@/lib/config";
import { SecretBox } from "@/lib/crypto/secret-box";
import { configureOffering } from "@/lib/currencies/offering";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { openDatabase, queryRows } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { jobHandlers, payoutAdapter } from "@/lib/host/job-handlers";
import { startJobRunner } from "@/lib/jobs/runner";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { seedRates } from "@/lib/rates/rates";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import {
  isLitecoindInstalled,
  type LitecoindNode,
  litecoinRpc,
  startLitecoind,
} from "../scripts/litecoind.mjs";
import { startPostgres } from "../scripts/postgres.mjs";
import { benchPricing } from "./pricing";
import { recordRun } from "./record-run";

/**
 * The Litecoin part of `npm run bench:payouts` (method and figures: docs/BENCHMARKS.md, "Litecoin
 * payouts from Kassa's own coins"): PAYOUTS withdrawals accepted on a regtest litecoind (createWithdrawal),
 * then the job runner timed until each has its txid. Batching off (4 jobs at once), then a WINDOW-second
 * batch with 4 jobs and with 1, its wait skipped by moving the runner's clock. The baseline, in the same run
 * at the same fee rate: the node's wallet, a `sendtoaddress` each and one `sendmany`. Every fee and payee
 * is checked on the node, never in Kassa's records.
 */
const PAYOUTS = Number(process.env.KASSA_BENCH_LTC_PAYOUTS ?? 100);
const WINDOW = 60;
const CONFIRMATIONS = 2;
/** Litoshi per payout (0.05 LTC; the registry's minimum is 0.02), and per coin Kassa is funded with. */
const AMOUNT = 5_000_000n;
const COIN = 100_000_000n;
/** The fee rate both sides pay: Kassa's fallback on a chain with no estimate, and the wallet's settxfee. */
const FEE_RATE_LTC_PER_KVB = "0.00020000";
/** No wait in the bench runs longer than this; a stuck run fails instead of hanging. */
const WAIT_LIMIT_MS = Number(process.env.KASSA_BENCH_WAIT_SECONDS ?? 600) * 1000;

type NodeTransaction = {
  txid: string;
  vsize: number;
  vin: { txid: string; vout: number }[];
  vout: { value: number; n: number; scriptPubKey: { addresses?: string[] } }[];
};

export type PayoutRow = {
  label: string;
  payouts: number;
  seconds: number;
  payoutsPerMinute: number;
  transactions: number;
  vsize: number;
  fee: bigint;
  paidExactly: number;
  /** Batching only: the time until every job had deferred itself to the window's end. */
  deferSeconds?: number;
  jobFailures?: number;
  /** Claimed (`sending`) but never signed when every job had finished: left to the 5-minute claim sweep. */
  withoutTxid?: number;
};

/** The node's decimal amount as litoshi, parsed here, not by Kassa's code. */
const litoshiOf = (value: number | string) => {
  const [whole, fraction = ""] = String(value).split(".");
  return BigInt(whole!) * COIN + BigInt(fraction.padEnd(8, "0"));
};
const coins = (litoshi: bigint) => `${litoshi / COIN}.${(litoshi % COIN).toString().padStart(8, "0")}`;
/** A payee: a regtest segwit v0 address of a random 20-byte program, one per payout. */
const payee = () => bech32.encode("rltc", [0, ...bech32.toWords(randomBytes(20))]);

async function until(what: string, condition: () => Promise<boolean>) {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the node says of a set of payout transactions: their vsize, their fees, and which payouts they pay exactly. */
async function onNode(node: LitecoindNode, txids: string[], payouts: Map<string, bigint>) {
  const rpc = <T>(method: string, params: unknown[]) => litecoinRpc<T>(node, method, params);
  let vsize = 0;
  let fee = 0n;
  const paid = new Map<string, bigint[]>();
  for (const txid of new Set(txids)) {
    const tx = await rpc<NodeTransaction>("getrawtransaction", [txid, true]);
    vsize += tx.vsize;
    let inputs = 0n;
    for (const input of tx.vin)
      inputs += litoshiOf(
        (await rpc<NodeTransaction>("getrawtransaction", [input.txid, true])).vout[input.vout]!.value,
      );
    fee += inputs - tx.vout.reduce((sum, output) => sum + litoshiOf(output.value), 0n);
    for (const output of tx.vout) {
      const address = output.scriptPubKey.addresses?.[0];
      if (address && payouts.has(address))
        paid.set(address, [...(paid.get(address) ?? []), litoshiOf(output.value)]);
    }
  }
  const paidExactly = [...payouts].filter(
    ([address, amount]) => paid.get(address)?.length === 1 && paid.get(address)![0] === amount,
  ).length;
  return { transactions: new Set(txids).size, vsize, fee, paidExactly };
}

const row = (
  label: string,
  seconds: number,
  measured: Awaited<ReturnType<typeof onNode>>,
  extra: Partial<PayoutRow> = {},
): PayoutRow => ({
  label,
  payouts: PAYOUTS,
  seconds,
  payoutsPerMinute: (measured.paidExactly / seconds) * 60,
  ...measured,
  ...extra,
});

export async function benchLitecoinPayouts(): Promise<{ database: string; rows: PayoutRow[] } | undefined> {
  if (!isLitecoindInstalled()) {
    console.log("Litecoin payouts skipped: litecoind is not installed (sudo apt-get install litecoind)");
    return undefined;
  }
  const node = await startLitecoind();
  const postgres = process.env.KASSA_BENCH_POSTGRES === "1" ? await startPostgres() : undefined;
  const handle = await openDatabase(
    postgres ? { kind: "pg", url: postgres.url, poolSize: 8 } : { kind: "pglite" },
  );
  const rpc = <T>(method: string, params: unknown[] = []) => litecoinRpc<T>(node, method, params);
  const box = new SecretBox(randomBytes(32));
  try {
    const { db } = handle;
    await runMigrations(handle);
    await syncCurrencies(db);
    await seedRates(db);
    const { merchantId } = await createMerchant(db, box, {
      name: "Bench",
      email: "bench@example.com",
      password: "long password 1",
    });
    // The customer's wallet: enough mature coinbase coins that its own payouts (the baseline) never
    // spend a long chain of unconfirmed change, which the node's mempool limits refuse.
    const own = await rpc<string>("getnewaddress", ["", "bech32"]);
    await rpc("generatetoaddress", [101 + PAYOUTS + 20, own]);
    const mine = (count: number) => rpc("generatetoaddress", [count, own]);

    const config: UtxoConfig = { rpcUrl: node.url, confirmations: CONFIRMATIONS };
    const network = await connectUtxoNetwork("LTC", config, "sandbox");
    configureOffering(
      withUtxoNetwork(
        {
          mode: "sandbox",
          realNetworks: {},
          realCurrencies: [],
          contracts: {},
          chainIds: {},
          decimals: {},
          confirmations: {},
        },
        { utxo: { LTC: config } },
        "LTC",
        network,
      ),
    );
    const watch = () => watchUtxoChain(db, { network, pricing: benchPricing });
    await watch(); // the cursor at the tip

    // Kassa's coins: a customer pays PAYOUTS + 10 deposit addresses 1 LTC each (one coin each: with
    // batching off every payout spends its own, its change pending until confirmed), credited to the merchant.
    const keys = deriveAccountKeys(await loadHdSeed(db, box));
    const deposits: Record<string, string> = {};
    for (let i = 0; i < PAYOUTS + 10; i++) {
      const address = await takeAddress(db, keys, { merchantId, foreignId: `fund-${i}`, currency: "LTC" });
      deposits[address.address] = coins(COIN);
    }
    await rpc("sendmany", ["", deposits]);
    await watch();
    await mine(CONFIRMATIONS);
    await watch();
    const [spendable] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from utxo_coins where status = 'spendable'`,
    );
    console.error(`[bench] litecoind up, Kassa holds ${spendable!.n} spendable coins`);

    let counter = 0;
    const withdraw = (address: string) =>
      createWithdrawal(
        db,
        withdrawalInput(
          merchantId,
          withdrawalRequest.parse({
            currency: "LTC",
            amount: coins(AMOUNT),
            address,
            foreign_id: `bench-${++counter}`,
            end_user_reference: "payee",
            sender_type: "legal",
            sender_data: { legal_name: "Bench GmbH", country_of_registration: "DEU" },
            receiver_type: "self",
          }),
          benchPricing,
        ),
      );

    /** PAYOUTS withdrawals queued, then the production runner until each has its txid. */
    const runKassa = async (label: string, batchSeconds: number, concurrency: number): Promise<PayoutRow> => {
      const payouts = new Map<string, bigint>();
      const ids: number[] = [];
      for (let i = 0; i < PAYOUTS; i++) {
        const address = payee();
        payouts.set(address, AMOUNT);
        ids.push((await withdraw(address)).id);
      }
      const idList = sql.join(ids, sql`, `);
      const txids = async () =>
        (
          await queryRows<{ txid: string }>(
            db,
            sql`select txid from withdrawals where transaction_id in (${idList}) and txid is not null`,
          )
        ).map((r) => r.txid);
      let offsetMs = 0;
      const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
      const failures: string[] = [];
      const handlers = jobHandlers({
        pricing: benchPricing,
        mail: { smtpUrl: undefined, from: "Kassa <bench@kassa.test>" },
        chain: payoutAdapter({ mode: "sandbox", evm: undefined, utxo: { LTC: config }, batchSeconds, box }),
      });
      const began = performance.now();
      const runner = startJobRunner({
        db,
        handlers,
        concurrency,
        clock,
        log: (message) => {
          failures.push(message);
          console.error(`[bench] ${message}`);
        },
      });
      let deferSeconds: number | undefined;
      try {
        if (batchSeconds > 0) {
          // Every broadcast job has run once and put itself off to the window's end: skip the wait.
          await until("every job deferred to the batch window's end", async () => {
            const [n] = await queryRows<{ n: number }>(
              db,
              sql`select count(*)::int as n from jobs where queue = 'withdrawal.broadcast' and status = 'queued'
                    and run_at > ${clock.now().toISOString()}::timestamptz
                    and (payload->>'withdrawalId')::bigint in (${idList})`,
            );
            return n!.n === PAYOUTS;
          });
          deferSeconds = (performance.now() - began) / 1000;
          offsetMs += (batchSeconds + 1) * 1000;
        }
        // Every payout has its txid, or no broadcast job is left to give it one.
        await until("every payout's txid, or its job finished", async () => {
          if ((await txids()).length === PAYOUTS) return true;
          const [open] = await queryRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from jobs where queue = 'withdrawal.broadcast' and status = 'queued'
                  and (payload->>'withdrawalId')::bigint in (${idList})`,
          );
          return open!.n === 0;
        });
      } catch (error) {
        // Where each payout and its job stood when the wait gave up.
        console.error(
          await queryRows(
            db,
            sql`select t.id, t.status, w.txid is not null as has_txid, j.status as job, j.attempts, j.run_at::text, j.last_error
                from withdrawals w join transactions t on t.id = w.transaction_id
                left join jobs j on j.queue = 'withdrawal.broadcast' and (j.payload->>'withdrawalId')::bigint = t.id
                where t.id in (${idList}) order by t.id`,
          ),
          clock.now().toISOString(),
        );
        throw error;
      } finally {
        await runner.stop();
      }
      const seconds = (performance.now() - began) / 1000;
      const measured = await onNode(node, await txids(), payouts);
      // Confirmed, so the change is spendable for what comes next.
      await mine(CONFIRMATIONS);
      await trackUtxoPayouts(db, network);
      return row(label, seconds, measured, {
        deferSeconds,
        jobFailures: failures.length,
        withoutTxid: PAYOUTS - (await txids()).length,
      });
    };

    const rows = [
      await runKassa("Kassa, batching off (KASSA_PAYOUT_BATCH_SECONDS=0), 4 workers", 0, 4),
      await runKassa(`Kassa, batching on (${WINDOW} s window, its wait skipped), 4 workers`, WINDOW, 4),
      await runKassa(`Kassa, batching on (${WINDOW} s window, its wait skipped), 1 worker`, WINDOW, 1),
    ];

    // The baseline: the node's own wallet pays as many payouts at the same fee rate.
    await rpc("settxfee", [FEE_RATE_LTC_PER_KVB]);
    const oneByOne = new Map<string, bigint>();
    const oneByOneTxids: string[] = [];
    let began = performance.now();
    for (let i = 0; i < PAYOUTS; i++) {
      const address = payee();
      oneByOne.set(address, AMOUNT);
      oneByOneTxids.push(await rpc<string>("sendtoaddress", [address, coins(AMOUNT), "", "", false, true]));
    }
    rows.push(
      row(
        "litecoind's wallet, sendtoaddress per payout",
        (performance.now() - began) / 1000,
        await onNode(node, oneByOneTxids, oneByOne),
      ),
    );
    const together = new Map<string, bigint>();
    for (let i = 0; i < PAYOUTS; i++) together.set(payee(), AMOUNT);
    began = performance.now();
    const many = await rpc<string>("sendmany", [
      "",
      Object.fromEntries([...together].map(([address, amount]) => [address, coins(amount)])),
      1,
      "",
      [],
      true,
    ]);
    rows.push(
      row(
        `litecoind's wallet, one sendmany of ${PAYOUTS}`,
        (performance.now() - began) / 1000,
        await onNode(node, [many], together),
      ),
    );
    return { database: postgres ? "postgresql" : "pglite", rows };
  } finally {
    configureOffering(undefined);
    await handle.close();
    postgres?.stop();
    await node.stop();
  }
}

/** The run as markdown: one row per way of paying, fees as the node counts them. */
function reportOf(result: { database: string; rows: PayoutRow[] }, load: number[]): string {
  const cpus = os.cpus();
  const lines = [
    `### Litecoin payouts, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `${cpus.length} × ${cpus[0]?.model.trim()}, Node ${process.version}, ${os.platform()} ${os.release()}; ` +
      `${result.database === "postgresql" ? "PostgreSQL" : "PGlite"}; litecoind regtest; load average at start ` +
      `${load.map((l) => l.toFixed(1)).join(" ")}; ${PAYOUTS} payouts of ${coins(AMOUNT)} LTC per row, ` +
      `fee rate ${FEE_RATE_LTC_PER_KVB} LTC/kvB (20 litoshi per virtual byte) on both sides.`,
    "",
    "| payer | payouts | time s | payouts/min | transactions | vsize total | fee total litoshi | fee per payout paid, litoshi | litoshi/vB | paid exactly, once |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...result.rows.map(
      (r) =>
        `| ${r.label} | ${r.payouts} | ${r.seconds.toFixed(2)} | ${Math.round(r.payoutsPerMinute)} | ${r.transactions} | ` +
        `${r.vsize} | ${r.fee} | ${r.paidExactly > 0 ? r.fee / BigInt(r.paidExactly) : "–"} | ${(Number(r.fee) / r.vsize).toFixed(1)} | ${r.paidExactly} / ${r.payouts} |`,
    ),
    "",
    ...result.rows
      .filter((r) => r.jobFailures !== undefined)
      .map(
        (r) =>
          `- ${r.label}: ${r.jobFailures} failed job attempts logged, ${r.withoutTxid} payout(s) left claimed without a txid` +
          (r.deferSeconds === undefined
            ? ""
            : `; every job deferred to the window's end after ${r.deferSeconds.toFixed(2)} s, the rest is the send after the window`),
      ),
  ];
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const load = os.loadavg();
  const result = await benchLitecoinPayouts();
  if (result) {
    const report = reportOf(result, load);
    console.log(report);
    if (!process.argv.includes("--no-record")) console.log(`recorded in ${recordRun("ltc-payouts", report)}`);
  }
}
