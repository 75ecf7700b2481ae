import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  coins,
  litoshiOf,
  NODE_START_MS,
  startTestLitecoind,
  type TestLitecoind,
} from "../support/litecoind";
import { waitUntil } from "../support/wait";
import {
  type Credentials,
  cli,
  createInstallation,
  driver,
  type Installation,
  type KassaProcess,
  kill,
  newMerchant,
  signed,
  startKassa,
  step,
  withdrawalBody,
} from "./harness";

const CONFIRMATIONS = 2;
/** Kassa's hot wallet gets this many coins of 1 LTC: payouts signed at once by two workers need several. */
const FUNDING_COINS = 8;

type Info = { status: string; transactions?: { txid?: string }[] };
type Wallets = { ltc: { address: string; balances: Record<string, string> } };
type Reconcile = { ltc: { currencies: { LTC: { unexplained: string; explained: Record<string, string> } } } };

/**
 * Never twice, with real processes: a Kassa job runner (the server on PGlite; workers on PostgreSQL,
 * two at once at the end) pays LTC withdrawals from its own coins on a regtest litecoind and is
 * SIGKILLed where a payout is signed and stored but not sent, and where it is sent but its txid not
 * yet recorded (KASSA_TEST_CRASH_AT, lib/jobs/crash-point.ts). Every payment is counted by the node's
 * own wallet, which holds the recipients' addresses; never from Kassa's numbers.
 */
describe(`LTC payouts on ${driver}: SIGKILL between signing, sending and recording pays once`, () => {
  let node: TestLitecoind;
  let installation: Installation | undefined;
  const running: KassaProcess[] = [];
  /** The process that answers the API: the server (on PostgreSQL, one with its jobs off, started once). */
  let api: KassaProcess | undefined;

  beforeAll(async () => {
    node = await startTestLitecoind();
  }, NODE_START_MS);
  afterEach(async (context) => {
    if (context.task.result?.state === "fail")
      for (const p of running) console.log(`process log (last lines):\n${p.log.slice(-30).join("")}`);
    for (const p of running) await kill(p, "SIGKILL");
    running.length = 0;
    await installation?.cleanup();
    installation = undefined;
  });
  afterAll(async () => {
    await node?.stop();
  });

  const start = async (entry: "server.ts" | "worker.ts", env: Record<string, string> = {}) => {
    const started = await startKassa(installation!, { entry, env });
    running.push(started);
    return started;
  };
  /** A job runner: the server itself on PGlite (one process per data directory), a worker on PostgreSQL. */
  const startRunner = async (crashAt?: string) => {
    const env: Record<string, string> = crashAt ? { KASSA_TEST_CRASH_AT: crashAt } : {};
    if (driver === "pg") return start("worker.ts", env);
    api = await start("server.ts", env);
    return api;
  };
  const diedAtCrashPoint = (runner: KassaProcess, point: string) =>
    waitUntil(() => runner.process.signalCode === "SIGKILL", {
      what: `the runner killed itself at ${point}`,
      timeoutMs: 60_000,
      intervalMs: 100,
    });

  /** What the node's wallet received at `address`, mempool included, and in how many transactions. */
  const receivedAt = async (address: string) => {
    const [entry] = await node.rpc<{ amount: number; txids: string[] }[]>("listreceivedbyaddress", [
      0,
      true,
      true,
      address,
    ]);
    const amount = litoshiOf(await node.rpc<number>("getreceivedbyaddress", [address, 0]));
    return { amount, txids: entry?.txids ?? [] };
  };
  const info = async (merchant: Credentials, id: number) =>
    (await signed(api!.base, merchant, "/transactions/info", JSON.stringify({ id }))).json as unknown as Info;
  const recordedTxid = (merchant: Credentials, id: number) =>
    waitUntil(async () => (await info(merchant, id)).transactions?.[0]?.txid, {
      what: `withdrawal ${id} has its txid recorded`,
      timeoutMs: 60_000,
      intervalMs: 250,
    });

  type Payout = { id: number; address: string; litoshi: bigint };
  const withdraw = async (merchant: Credentials, litoshi: bigint, foreignId: string): Promise<Payout> => {
    const address = await node.rpc<string>("getnewaddress", ["", "bech32"]);
    const response = await signed(
      api!.base,
      merchant,
      "/withdrawal/crypto",
      withdrawalBody(foreignId, { amount: coins(litoshi), address }),
    );
    expect(response.status, response.text).toBe(201);
    return { id: Number(response.json.data!.id), address, litoshi };
  };

  it("pays each withdrawal exactly once across kills after signing and after sending, and with two workers at once", async () => {
    installation = await createInstallation();
    Object.assign(installation.env, {
      KASSA_LTC_RPC_URL: node.url,
      KASSA_LTC_CONFIRMATIONS: String(CONFIRMATIONS),
      KASSA_JOB_LEASE_SECONDS: "2",
    });
    if (driver === "pg") api = await start("server.ts", { KASSA_JOBS: "off" });
    let runner = await startRunner("utxo-payout-signed");
    const merchant = await newMerchant(installation);

    // Once the watcher follows the chain (its first pass starts at the tip), a customer pays the
    // merchant's deposit address and the operator funds the hot wallet, one coin a payment.
    const deposit = await signed(
      api!.base,
      merchant,
      "/addresses/take",
      JSON.stringify({ currency: "LTC", foreign_id: "customer" }),
    );
    expect(deposit.status, deposit.text).toBe(201);
    const wallets = (await cli(installation, "chain", "wallets")) as Wallets;
    await node.pay(String(deposit.json.data!.address), 300_000_000n);
    for (let i = 0; i < FUNDING_COINS; i++) await node.pay(wallets.ltc.address, 100_000_000n);
    const incoming = 300_000_000n + BigInt(FUNDING_COINS) * 100_000_000n;
    await waitUntil(
      async () =>
        ((await cli(installation!, "chain", "reconcile")) as Reconcile).ltc.currencies.LTC.explained
          .payments_not_credited === coins(incoming),
      { what: "the watcher saw the payments in the mempool", timeoutMs: 60_000, intervalMs: 1_000 },
    );
    await node.mine(CONFIRMATIONS);
    await waitUntil(
      async () => {
        const accounts = (await signed(api!.base, merchant, "/accounts/list", "{}")).json.data as unknown as {
          currency: string;
          balance: string;
        }[];
        const wallet = (await cli(installation!, "chain", "wallets")) as Wallets;
        return (
          litoshiOf(accounts.find((a) => a.currency === "LTC")?.balance ?? "0") > 0n &&
          litoshiOf(wallet.ltc.balances.LTC ?? "0") >= BigInt(FUNDING_COINS) * 100_000_000n
        );
      },
      { what: "the deposit is credited and the funding spendable", timeoutMs: 60_000, intervalMs: 1_000 },
    );
    expect(await node.rpc<string[]>("getrawmempool")).toEqual([]);

    // (a) Signed and stored, killed before sendrawtransaction: nothing reached the node.
    const first = await withdraw(merchant, 11_000_000n, "kill-signed");
    await diedAtCrashPoint(runner, "utxo-payout-signed");
    step("(a) killed after signing");
    expect(await node.rpc<string[]>("getrawmempool")).toEqual([]);
    expect(await receivedAt(first.address)).toEqual({ amount: 0n, txids: [] });

    // The restarted runner sends the stored bytes and records them; then (b) it sends the next
    // payout and is killed before recording its txid: the payment is on the node all the same.
    runner = await startRunner("utxo-payout-sent");
    const firstTxid = await recordedTxid(merchant, first.id);
    expect(await receivedAt(first.address)).toEqual({ amount: first.litoshi, txids: [firstTxid] });
    const second = await withdraw(merchant, 12_000_000n, "kill-sent");
    await diedAtCrashPoint(runner, "utxo-payout-sent");
    step("(b) killed after sending, before recording");
    const secondOnNode = await receivedAt(second.address);
    expect(secondOnNode.amount).toBe(second.litoshi);
    expect(secondOnNode.txids).toHaveLength(1);
    expect(await node.rpc<string[]>("getrawmempool")).toContain(secondOnNode.txids[0]);

    // Restarted (on PostgreSQL two workers at once), the runners record the second payout's txid
    // and race for the rest: each destination is paid once.
    await startRunner();
    if (driver === "pg") await startRunner();
    expect(await recordedTxid(merchant, second.id)).toBe(secondOnNode.txids[0]);
    const rest = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        withdraw(merchant, 13_000_000n + BigInt(i) * 1_000_000n, `race-${i}`),
      ),
    );
    const payouts = [first, second, ...rest];
    await waitUntil(
      async () => {
        // Mined as a network would, until every payout has its confirmations.
        await node.mine(1);
        const statuses = await Promise.all(payouts.map(async (p) => (await info(merchant, p.id)).status));
        return statuses.every((status) => status === "confirmed");
      },
      { what: "every withdrawal is confirmed", timeoutMs: 120_000, intervalMs: 500 },
    );
    step("every withdrawal confirmed");

    for (const payout of payouts) {
      const received = await receivedAt(payout.address);
      expect(received, `withdrawal ${payout.id}`).toEqual({
        amount: payout.litoshi,
        txids: [(await info(merchant, payout.id)).transactions![0]!.txid],
      });
      const mined = await node.rpc<{ confirmations?: number }>("getrawtransaction", [
        received.txids[0],
        true,
      ]);
      expect(mined.confirmations).toBeGreaterThanOrEqual(CONFIRMATIONS);
    }
    expect(await node.rpc<string[]>("getrawmempool")).toEqual([]);
    const report = (await cli(installation, "chain", "reconcile")) as Reconcile & { is_reconciled: boolean };
    expect(report.ltc.currencies.LTC.unexplained).toBe("0.00000000");
    expect(report.is_reconciled).toBe(true);
  });
});
