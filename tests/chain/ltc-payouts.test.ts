import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { deriveAccountKeys } from "@/lib/chain/account-keys";
import { outputScriptOf } from "@/lib/chain/address-codec";
import { forgetHdSeed, loadHdSeed } from "@/lib/chain/hd-seed";
import { consolidateUtxoCoins } from "@/lib/chain/utxo/payout/consolidate-utxo-coins";
import { replaceUtxoPayout } from "@/lib/chain/utxo/payout/replace-utxo-payout";
import { signUtxoPayout } from "@/lib/chain/utxo/payout/sign-utxo-payout";
import { trackUtxoPayouts } from "@/lib/chain/utxo/payout/track-utxo-payouts";
import { connectUtxoNetwork, type UtxoNetwork } from "@/lib/chain/utxo/utxo-network";
import { withUtxoNetwork } from "@/lib/chain/utxo/utxo-offering";
import { watchUtxoChain } from "@/lib/chain/utxo/watch-utxo-chain";
import { runCliCommand } from "@/lib/cli/commands";
import type { UtxoConfig } from "@/lib/config";
import { configureOffering } from "@/lib/currencies/offering";
import { queryRows } from "@/lib/db/client";
import { utxoPayouts } from "@/lib/db/schema";
import { jobHandlers, payoutAdapter } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { formatAmount, parseDecimal } from "@/lib/money";
import { readPayoutBatch } from "@/lib/payout-batches/read-payout-batch";
import { sendPayoutBatch } from "@/lib/payout-batches/send-payout-batch";
import { instantWithdrawalRequest, withdrawalRequest } from "@/lib/schemas/withdrawals";
import { claimWithdrawal } from "@/lib/withdrawals/claim-withdrawal";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { decideWithdrawal } from "@/lib/withdrawals/decide-withdrawal";
import { instantWithdrawalInput, withdrawalInput } from "@/lib/withdrawals/from-request";
import { broadcastWithdrawal } from "@/lib/withdrawals/process-withdrawal";
import { withdrawalReference } from "@/lib/withdrawals/withdrawal-reference";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import {
  doubleSpend,
  litoshiOf,
  NODE_START_MS,
  SANDBOX_OFFERING,
  startTestLitecoind,
  type TestLitecoind,
} from "../support/litecoind";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const CONFIRMATIONS = 2;

type NodeTransaction = {
  txid: string;
  vsize: number;
  vin: { txid: string; vout: number; sequence: number }[];
  vout: { value: number; n: number; scriptPubKey: { addresses?: string[] } }[];
  confirmations?: number;
};

/**
 * How far above its rate a transaction re-signed until its fee covers its own size may pay: each
 * input's DER signature is 70 to 72 bytes, two witness bytes, half a virtual byte
 * (lib/chain/utxo/payout/sign-at-fee-rate.ts). It never pays less than the rate.
 */
function signingSlack(transaction: { vin: unknown[] }): number {
  return Math.ceil(transaction.vin.length / 2);
}

describe(`Litecoin payouts from Kassa's own coins on a real litecoind in regtest (${testDriver})`, () => {
  let customer: TestLitecoind;
  let database: TestDatabase;
  let network: UtxoNetwork;
  let config: UtxoConfig;
  let handlers: ReturnType<typeof jobHandlers>;
  let merchantId: number;
  let counter = 0;

  const transaction = (txid: string) => customer.rpc<NodeTransaction>("getrawtransaction", [txid, true]);
  const watch = () => watchUtxoChain(database.db, { network, pricing });
  const balance = async () =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === "LTC")?.balance ?? 0n;
  const status = async (id: number) =>
    (
      await queryRows<{ status: string }>(database.db, sql`select status from transactions where id = ${id}`)
    )[0]!.status;
  const txidOf = async (id: number) =>
    (
      await queryRows<{ txid: string | null }>(
        database.db,
        sql`select txid from withdrawals where transaction_id = ${id}`,
      )
    )[0]!.txid;
  const withdraw = (amount: string, address: string) =>
    createWithdrawal(
      database.db,
      withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          currency: "LTC",
          amount,
          address,
          foreign_id: `ltc-payout-${++counter}`,
          end_user_reference: "payee",
          sender_type: "legal",
          sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
          receiver_type: "self",
        }),
        pricing,
      ),
    );
  const freshAddress = () => customer.rpc<string>("getnewaddress", ["", "bech32"]);
  /** What the node's wallet received at an address, unconfirmed included: the test's own count of payments. */
  const receivedAt = async (address: string) =>
    litoshiOf(await customer.rpc<number>("getreceivedbyaddress", [address, 0]));
  /** The customer pays Kassa: one coin per amount, credited after the confirmations. */
  const fundKassa = async (...amounts: string[]) => {
    const keys = deriveAccountKeys(await loadHdSeed(database.db, database.box));
    for (const amount of amounts) {
      const address = await takeAddress(database.db, keys, {
        merchantId,
        foreignId: `fund-${++counter}`,
        currency: "LTC",
      });
      await customer.pay(address.address, parseDecimal(amount));
    }
    await watch();
    await customer.mine(CONFIRMATIONS);
    await watch();
  };
  /** Fee of a transaction as the node sees it: its inputs' values (read from their own transactions) less its outputs'. */
  const nodeFee = async (tx: NodeTransaction) => {
    let inputs = 0n;
    for (const input of tx.vin) inputs += litoshiOf((await transaction(input.txid)).vout[input.vout]!.value);
    return inputs - tx.vout.reduce((sum, output) => sum + litoshiOf(output.value), 0n);
  };
  const coinRows = () =>
    queryRows<{ txid: string; vout: number; status: string; base_amount: string; derivation_path: string }>(
      database.db,
      sql`select txid, vout, status, base_amount::text, derivation_path from utxo_coins order by id`,
    );
  const expectLedgerBalanced = async () =>
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });

  beforeAll(async () => {
    customer = await startTestLitecoind();
    database = await createTestDatabase();
    forgetHdSeed();
    merchantId = await createTestMerchant(database, "Litecoin payouts");
    config = { rpcUrl: customer.url, confirmations: CONFIRMATIONS };
    network = await connectUtxoNetwork("LTC", config, "sandbox");
    configureOffering(withUtxoNetwork(SANDBOX_OFFERING, { utxo: { LTC: config } }, "LTC", network));
    handlers = jobHandlers({
      pricing,
      mail: { smtpUrl: undefined, from: "Kassa <test@kassa.test>" },
      chain: payoutAdapter({ mode: "sandbox", evm: undefined, utxo: { LTC: config }, box: database.box }),
    });
    await watch();
    await fundKassa("1", "1", "1", "1", "1", "1");
  }, NODE_START_MS);
  afterAll(async () => {
    configureOffering(undefined);
    await database?.drop();
    await customer?.stop();
  });

  it("pays to each kind of Litecoin address the script the node itself derives for it", async () => {
    for (const kind of ["bech32", "p2sh-segwit", "legacy"]) {
      const address = await customer.rpc<string>("getnewaddress", ["", kind]);
      const { scriptPubKey } = await customer.rpc<{ scriptPubKey: string }>("validateaddress", [address]);
      expect(Buffer.from(outputScriptOf("litecoin", address, "regtest")!).toString("hex")).toBe(scriptPubKey);
    }
  });

  it("pays the exact amount from Kassa's coins, fee as the node counts it, change back to Kassa; confirmed after the confirmations", async () => {
    expect(await balance()).toBeGreaterThan(parseDecimal("5"));
    const to = await freshAddress();
    const before = await balance();
    const { id } = await withdraw("0.3", to);
    await runDueJobs(database.db, handlers);
    const txid = (await txidOf(id))!;
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await status(id)).toBe("sending");

    const onChain = await transaction(txid);
    const paid = onChain.vout.filter((o) => o.scriptPubKey.addresses?.[0] === to);
    expect(paid.map((o) => litoshiOf(o.value))).toEqual([30_000_000n]);
    // Replaceable (BIP 125), so a stuck payout can be bumped.
    expect(onChain.vin.every((i) => i.sequence < 0xfffffffe)).toBe(true);
    const fee = await nodeFee(onChain);
    const [stored] = await queryRows<{ fee: string; vsize: number; fee_rate: string }>(
      database.db,
      sql`select fee::text, vsize, fee_rate::text from utxo_payouts where txid = ${txid}`,
    );
    expect(BigInt(stored!.fee)).toBe(fee);
    expect(stored!.vsize).toBe(onChain.vsize);
    // Regtest has no fee estimate: the fallback (20 per virtual byte), never less than that.
    expect(fee).toBeGreaterThanOrEqual(20n * BigInt(onChain.vsize));
    expect(fee).toBeLessThan(25n * BigInt(onChain.vsize));
    // The other output is Kassa's change, on the change chain, a coin pending until confirmed.
    const change = onChain.vout.find((o) => o.scriptPubKey.addresses?.[0] !== to)!;
    const changeCoin = (await coinRows()).find((c) => c.txid === txid)!;
    expect(changeCoin).toMatchObject({ vout: change.n, status: "pending" });
    expect(BigInt(changeCoin.base_amount)).toBe(litoshiOf(change.value));
    expect(changeCoin.derivation_path).toMatch(/^m\/84'\/1'\/0'\/1\/\d+$/);
    // The merchant paid the amount, the fee and the network fee the registry charges, once.
    expect(before - (await balance())).toBeGreaterThanOrEqual(30_000_000n + 10_000n);

    await customer.mine(CONFIRMATIONS - 1);
    await trackUtxoPayouts(database.db, network);
    expect(await status(id)).toBe("sending");
    await customer.mine(1);
    expect(await trackUtxoPayouts(database.db, network)).toMatchObject({ confirmed: 1 });
    expect(await status(id)).toBe("confirmed");
    expect((await coinRows()).find((c) => c.txid === txid)!.status).toBe("spendable");
    // platform:network_fees LTC holds what the merchant was charged less the fee the node counts.
    const [fees] = await queryRows<{ balance: string }>(
      database.db,
      sql`select coalesce(sum(e.amount), 0)::text as balance from ledger_entries e join ledger_accounts a on a.id = e.account_id
          where a.kind = 'platform:network_fees' and a.currency = 'LTC'`,
    );
    expect(parseDecimal(fees!.balance)).toBe(10_000n - fee);
    await expectLedgerBalanced();
  });

  it("after a crash between signing and sending, the retried job sends the stored bytes: one payment", async () => {
    const to = await freshAddress();
    const { id } = await withdraw("0.25", to);
    const reference = withdrawalReference(id);
    // The broadcast job's first steps by hand: the claim commits, the payout is signed and stored,
    // and the process dies before the node hears of it.
    expect((await claimWithdrawal(database.db, id))?.isResumed).toBe(false);
    const signed = await signUtxoPayout(database.db, {
      network,
      seed: await loadHdSeed(database.db, database.box),
      outputs: [{ reference, address: to, baseAmount: 25_000_000n }],
      feeRate: 20n,
    });
    if (signed.kind !== "stored") throw new Error(signed.reason);
    expect(await receivedAt(to)).toBe(0n);

    // The job runs again after the crash, then once more: the stored transaction, once.
    await runDueJobs(database.db, handlers);
    await database.db.execute(
      sql`insert into jobs (queue, payload, run_at) values ('withdrawal.broadcast', ${JSON.stringify({ withdrawalId: id })}::jsonb, now())`,
    );
    await runDueJobs(database.db, handlers);
    expect(await txidOf(id)).toBe(signed.payout.txid);
    expect(await customer.rpc<string[]>("getrawmempool")).toContain(signed.payout.txid);
    expect(await receivedAt(to)).toBe(25_000_000n);
    await customer.mine(CONFIRMATIONS);
    await trackUtxoPayouts(database.db, network);
    expect(await status(id)).toBe("confirmed");
    expect(await receivedAt(to)).toBe(25_000_000n);
    await expectLedgerBalanced();
  });

  it("two broadcasters at once never take one coin: every payout leaves once, in a valid transaction", async () => {
    const payees = await Promise.all([1, 2, 3, 4].map(() => freshAddress()));
    const ids: number[] = [];
    for (const to of payees) ids.push((await withdraw("0.2", to)).id);
    // Two workers broadcast all four at once (each withdrawal by both): the claims and the coin locks decide.
    await Promise.all(
      [...ids, ...ids].map((withdrawalId) =>
        broadcastWithdrawal(database.db, {
          withdrawalId,
          adapter: payoutAdapter({
            mode: "sandbox",
            evm: undefined,
            utxo: { LTC: config },
            box: database.box,
          }),
        }).catch(() => undefined),
      ),
    );
    await runDueJobs(database.db, handlers); // whatever a worker left waiting goes now
    const txids = await Promise.all(ids.map(txidOf));
    expect(txids.every((t) => t !== null)).toBe(true);
    const spent = await queryRows<{ spent_by_payout_id: string; n: string }>(
      database.db,
      sql`select spent_by_payout_id::text, count(*)::text as n from utxo_coins where spent_by_payout_id is not null group by 1`,
    );
    expect(spent.length).toBeGreaterThan(0);
    // The node took every one: no two spend one input.
    const mempool = await customer.rpc<string[]>("getrawmempool");
    for (const txid of txids) expect(mempool).toContain(txid);
    const inputs = (await Promise.all(txids.map((t) => transaction(t!)))).flatMap((t) =>
      t.vin.map((i) => `${i.txid}:${i.vout}`),
    );
    expect(new Set(inputs).size).toBe(inputs.length);
    await customer.mine(CONFIRMATIONS);
    await trackUtxoPayouts(database.db, network);
    for (const [i, to] of payees.entries()) {
      expect(await status(ids[i]!)).toBe("confirmed");
      expect(await receivedAt(to)).toBe(20_000_000n);
    }
    await expectLedgerBalanced();
  });

  it("with batching on, payouts waiting together leave in one transaction, each once with its exact amount", async () => {
    const batched = jobHandlers({
      pricing,
      mail: { smtpUrl: undefined, from: "Kassa <test@kassa.test>" },
      chain: payoutAdapter({
        mode: "sandbox",
        evm: undefined,
        utxo: { LTC: config },
        batchSeconds: 30,
        box: database.box,
      }),
    });
    const clock = testClock();
    const shared = await freshAddress();
    const payees = [shared, shared, await freshAddress(), await freshAddress()];
    const amounts = [11_000_000n, 12_000_000n, 13_000_000n, 14_000_000n];
    const ids: number[] = [];
    for (const [i, to] of payees.entries()) ids.push((await withdraw(formatAmount(amounts[i]!), to)).id);
    // Within the window: every job is put off to the window's end, its attempt given back; nothing leaves.
    await runDueJobs(database.db, batched, { clock });
    for (const id of ids) expect(await status(id)).toBe("processing");
    const jobs = await queryRows<{ attempts: number; status: string }>(
      database.db,
      sql`select attempts, status from jobs where queue = 'withdrawal.broadcast' and (payload->>'withdrawalId')::bigint in (${sql.join(ids, sql`, `)})`,
    );
    expect(jobs).toEqual(ids.map(() => ({ attempts: 0, status: "queued" })));

    clock.advance(31);
    await runDueJobs(database.db, batched, { clock });
    const txids = await Promise.all(ids.map(txidOf));
    expect(new Set(txids).size).toBe(1);
    const onChain = await transaction(txids[0]!);
    const paidTo = (address: string) =>
      onChain.vout.filter((o) => o.scriptPubKey.addresses?.[0] === address).map((o) => litoshiOf(o.value));
    expect(paidTo(shared).sort()).toEqual([11_000_000n, 12_000_000n]);
    expect(paidTo(payees[2]!)).toEqual([13_000_000n]);
    expect(paidTo(payees[3]!)).toEqual([14_000_000n]);
    expect(onChain.vout.length).toBeLessThanOrEqual(5); // the four payouts and at most one change

    await customer.mine(CONFIRMATIONS);
    await trackUtxoPayouts(database.db, network);
    for (const id of ids) expect(await status(id)).toBe("confirmed");
    // The fee the node counts is booked once in all, shared out among the four payouts.
    const fee = await nodeFee(onChain);
    const booked = await queryRows<{ amount: string }>(
      database.db,
      sql`select e.amount::text from ledger_entries e join journals j on j.id = e.journal_id
            join ledger_accounts a on a.id = e.account_id
          where j.kind = 'withdrawal_network_fee' and a.kind = 'platform:chain' and a.currency = 'LTC'
            and j.transaction_id in (${sql.join(ids, sql`, `)})`,
    );
    expect(booked).toHaveLength(4);
    const paid = booked.map((b) => parseDecimal(b.amount));
    expect(paid.every((p) => p > 0n)).toBe(true);
    expect(paid.reduce((sum, p) => sum + p, 0n)).toBe(fee);
    await expectLedgerBalanced();
  });

  it("with batching on, a bulk payout leaves in one transaction: every row once, with its exact amount", async () => {
    const batched = jobHandlers({
      pricing,
      mail: { smtpUrl: undefined, from: "Kassa <test@kassa.test>" },
      chain: payoutAdapter({
        mode: "sandbox",
        evm: undefined,
        utxo: { LTC: config },
        batchSeconds: 30,
        box: database.box,
      }),
    });
    const clock = testClock();
    const payees = await Promise.all(Array.from({ length: 5 }, () => freshAddress()));
    const amounts = [2_100_000n, 2_200_000n, 2_300_000n, 2_400_000n, 2_500_000n];
    const { batchId } = await sendPayoutBatch(database.db, {
      merchantId,
      reference: `ltc-bulk-${++counter}`,
      sender: {
        sender_type: "legal",
        sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
      },
      rows: payees.map((address, i) => ({
        row: i + 1,
        payout: {
          currency: "LTC",
          amount: formatAmount(amounts[i]!),
          address,
          foreign_id: `ltc-bulk-row-${counter}-${i}`,
          receiver_type: "self",
        },
      })),
      pricing,
    });
    clock.advance(31);
    await runDueJobs(database.db, batched, { clock });
    const ids = (await readPayoutBatch(database.db, { merchantId, batchId })).payouts.map((p) => p.id);
    const txids = await Promise.all(ids.map(txidOf));
    expect(new Set(txids).size).toBe(1);
    const onChain = await transaction(txids[0]!);
    for (const [i, address] of payees.entries())
      expect(
        onChain.vout.filter((o) => o.scriptPubKey.addresses?.[0] === address).map((o) => litoshiOf(o.value)),
      ).toEqual([amounts[i]]);
    expect(onChain.vout.length).toBeLessThanOrEqual(6); // the five payouts and at most one change
    await customer.mine(CONFIRMATIONS);
    await trackUtxoPayouts(database.db, network);
    expect((await readPayoutBatch(database.db, { merchantId, batchId })).status).toBe("completed");
    for (const address of payees) expect(await receivedAt(address)).toBe(amounts[payees.indexOf(address)]);
    await expectLedgerBalanced();
  });

  it("a payout unmined past the threshold is replaced by fee: same inputs and payee, a higher fee; the replacement is mined once and is the txid", async () => {
    const to = await freshAddress();
    const { id } = await withdraw("0.2", to);
    await runDueJobs(database.db, handlers);
    const first = (await txidOf(id))!;
    const original = await transaction(first);
    const clock = testClock();
    const replacement = {
      afterSeconds: 600,
      feeRates: { fallback: 20, max: 500 },
      seed: (db: typeof database.db) => loadHdSeed(db, database.box),
      clock,
    };
    // Not yet due: nothing changes.
    expect(await trackUtxoPayouts(database.db, network, { replacement })).toMatchObject({ replaced: 0 });
    clock.advance(601);
    expect(await trackUtxoPayouts(database.db, network, { replacement })).toMatchObject({ replaced: 1 });
    const [row] = await queryRows<{ txid: string; replaced: { txid: string }[] }>(
      database.db,
      sql`select txid, replaced from utxo_payouts where replaced @> ${JSON.stringify([{ txid: first }])}::jsonb`,
    );
    const second = row!.txid;
    expect(second).not.toBe(first);
    const mempool = await customer.rpc<string[]>("getrawmempool");
    expect(mempool).toContain(second);
    expect(mempool).not.toContain(first);
    const replaced = await transaction(second);
    const outpoints = (t: NodeTransaction) => t.vin.map((i) => `${i.txid}:${i.vout}`).sort();
    expect(outpoints(replaced)).toEqual(outpoints(original));
    const paidTo = (t: NodeTransaction) =>
      t.vout.filter((o) => o.scriptPubKey.addresses?.[0] === to).map((o) => litoshiOf(o.value));
    expect(paidTo(replaced)).toEqual([20_000_000n]);
    const [oldFee, newFee] = [await nodeFee(original), await nodeFee(replaced)];
    // At least an eighth more per virtual byte (20 → 23).
    expect(newFee * BigInt(original.vsize)).toBeGreaterThanOrEqual(
      oldFee * BigInt(replaced.vsize) + (oldFee * BigInt(replaced.vsize)) / 8n,
    );
    expect(newFee).toBeGreaterThanOrEqual(23n * BigInt(replaced.vsize));

    await customer.mine(CONFIRMATIONS);
    await trackUtxoPayouts(database.db, network, { replacement });
    expect(await status(id)).toBe("confirmed");
    expect(await txidOf(id)).toBe(second);
    expect(await receivedAt(to)).toBe(20_000_000n);
    const change = replaced.vout.find((o) => o.scriptPubKey.addresses?.[0] !== to)!;
    expect((await coinRows()).find((c) => c.txid === second)).toMatchObject({
      vout: change.n,
      base_amount: litoshiOf(change.value).toString(),
      status: "spendable",
    });
    await expectLedgerBalanced();
  });

  it("an operator bumps a payout from the CLI at a chosen rate; a mined one or an unknown txid is refused in words", async () => {
    const to = await freshAddress();
    const { id } = await withdraw("0.12", to);
    await runDueJobs(database.db, handlers);
    const first = (await txidOf(id))!;
    const env = { db: database.db, box: database.box, isSandbox: true, utxo: { LTC: config } };
    const bump = (txid: string, rate?: number) =>
      runCliCommand(
        { name: "chain.bump", args: { currency: "LTC", txid, ...(rate && { "fee-rate": rate }) } },
        env,
      );
    expect((await fieldsOf(bump("nothex"))).txid).toContain("64 lower-case hexadecimal");
    expect((await fieldsOf(bump("0".repeat(64)))).txid).toContain("No LTC payout of Kassa's");
    // Below an eighth above the paid 20 per virtual byte: refused.
    expect((await fieldsOf(bump(first, 21))).txid).toContain("at least 23 per virtual byte");
    const bumped = await bump(first, 40);
    expect(bumped).toMatchObject({ replaced_txid: first, fee_rate: 40 });
    const replaced = await transaction(String(bumped.txid));
    const bumpedFee = await nodeFee(replaced);
    expect(bumpedFee).toBeGreaterThanOrEqual(40n * BigInt(replaced.vsize));
    expect(bumpedFee).toBeLessThanOrEqual(40n * BigInt(replaced.vsize + signingSlack(replaced)));
    expect(await customer.rpc<string[]>("getrawmempool")).not.toContain(first);
    await customer.mine(1);
    expect((await fieldsOf(bump(String(bumped.txid), 80))).txid).toContain("already mined");
    await customer.mine(CONFIRMATIONS);
    await trackUtxoPayouts(database.db, network);
    expect(await txidOf(id)).toBe(bumped.txid);
    expect(await receivedAt(to)).toBe(12_000_000n);
    await expectLedgerBalanced();
  });

  it("when the version a replacement replaced is the one mined, the payout settles as that version", async () => {
    const to = await freshAddress();
    const { id } = await withdraw("0.15", to);
    await runDueJobs(database.db, handlers);
    const first = (await txidOf(id))!;
    const original = await transaction(first);
    await customer.mine(1);
    // A replacement signed after the first version was mined (the tracker had not seen it yet): the node refuses it.
    const [stored] = await database.db.select().from(utxoPayouts).where(eq(utxoPayouts.txid, first));
    await expect(
      replaceUtxoPayout(database.db, {
        network,
        payout: stored!,
        seed: await loadHdSeed(database.db, database.box),
        policy: { fallback: 20, max: 500 },
      }),
    ).rejects.toThrow(/sendrawtransaction/);
    await customer.mine(CONFIRMATIONS - 1);
    await trackUtxoPayouts(database.db, network);
    expect(await status(id)).toBe("confirmed");
    expect(await txidOf(id)).toBe(first);
    const [settled] = await database.db.select().from(utxoPayouts).where(eq(utxoPayouts.id, stored!.id));
    expect(settled).toMatchObject({ txid: first, fee: await nodeFee(original), status: "confirmed" });
    const change = original.vout.find((o) => o.scriptPubKey.addresses?.[0] !== to)!;
    expect((await coinRows()).find((c) => c.txid === first)).toMatchObject({
      vout: change.n,
      base_amount: litoshiOf(change.value).toString(),
      status: "spendable",
    });
    await expectLedgerBalanced();
  });

  it("merges many small coins into one while fees are low: exact value, fee as the node counts it, booked as Kassa's own; reconciled", async () => {
    const keys = deriveAccountKeys(await loadHdSeed(database.db, database.box));
    const small: Record<string, bigint> = {};
    for (let i = 0; i < 6; i++) {
      const { address } = await takeAddress(database.db, keys, {
        merchantId,
        foreignId: `small-${++counter}`,
        currency: "LTC",
      });
      small[address] = 5_000_000n;
    }
    await customer.payMany(small);
    await watch();
    await customer.mine(CONFIRMATIONS);
    await watch();
    const spendable = async () => (await coinRows()).filter((c) => c.status === "spendable");
    const before = await spendable();
    const run = async (policy: { belowFeeRate: number; minCoins: number; maxInputs: number }) =>
      consolidateUtxoCoins(database.db, {
        network,
        seed: await loadHdSeed(database.db, database.box),
        feeRates: { fallback: 20, max: 500 },
        policy,
      });
    // Fees above the threshold (regtest's fallback is 20), or too few coins: nothing moves.
    expect(await run({ belowFeeRate: 19, minCoins: 2, maxInputs: 6 })).toMatchObject({ kind: "skipped" });
    expect(await run({ belowFeeRate: 20, minCoins: before.length + 1, maxInputs: 500 })).toMatchObject({
      kind: "skipped",
    });
    const merged = await run({ belowFeeRate: 20, minCoins: 6, maxInputs: 6 });
    if (merged.kind !== "consolidated") throw new Error(merged.reason);
    const onChain = await transaction(merged.payout.txid);
    expect(onChain.vin).toHaveLength(6);
    expect(onChain.vout).toHaveLength(1);
    const fee = await nodeFee(onChain);
    // 20 per virtual byte of the signed size, or a little more from re-signing, never less.
    expect(fee).toBeGreaterThanOrEqual(20n * BigInt(onChain.vsize));
    expect(fee).toBeLessThanOrEqual(20n * BigInt(onChain.vsize + signingSlack(onChain)));
    // The six smallest coins went in; one coin of their value less the fee came out, Kassa's.
    const smallest = [...before]
      .sort((a, b) => Number(BigInt(a.base_amount) - BigInt(b.base_amount)))
      .slice(0, 6);
    const inputs = onChain.vin.map((i) => `${i.txid}:${i.vout}`).sort();
    expect(inputs).toEqual(smallest.map((c) => `${c.txid}:${c.vout}`).sort());
    const value = smallest.reduce((sum, c) => sum + BigInt(c.base_amount), 0n);
    expect(litoshiOf(onChain.vout[0]!.value)).toBe(value - fee);
    await customer.mine(CONFIRMATIONS);
    await trackUtxoPayouts(database.db, network);
    const after = await spendable();
    expect(after).toHaveLength(before.length - 5);
    const sum = (coins: typeof after) => coins.reduce((total, c) => total + BigInt(c.base_amount), 0n);
    expect(sum(before) - sum(after)).toBe(fee);
    const [booked] = await queryRows<{ amount: string }>(
      database.db,
      sql`select e.amount::text from ledger_entries e join journals j on j.id = e.journal_id
            join ledger_accounts a on a.id = e.account_id
          where j.kind = 'utxo_consolidation' and a.kind = 'platform:chain' and a.currency = 'LTC'`,
    );
    expect(parseDecimal(booked!.amount)).toBe(fee);
    await expectLedgerBalanced();
    const report = (await runCliCommand(
      { name: "chain.reconcile", args: {} },
      { db: database.db, box: database.box, isSandbox: true, utxo: { LTC: config } },
    )) as { ltc: { currencies: { LTC: { unexplained: string } } } };
    expect(report.ltc.currencies.LTC.unexplained).toBe("0.00000000");
  });

  it("a payout Kassa's coins cannot cover waits in processing, and goes once a deposit makes them enough", async () => {
    // Sandbox LTC from before the node was configured: the merchant's balance covers what Kassa's coins do not.
    configureOffering(SANDBOX_OFFERING);
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "LTC",
      amount: parseDecimal("20"),
      isSandbox: true,
    });
    configureOffering(withUtxoNetwork(SANDBOX_OFFERING, { utxo: { LTC: config } }, "LTC", network));
    const held = (await coinRows())
      .filter((c) => c.status === "spendable")
      .reduce((sum, c) => sum + BigInt(c.base_amount), 0n);
    const wanted = held + 50_000_000n;
    const to = await freshAddress();
    const { id } = await withdraw(formatAmount(wanted), to);
    await runDueJobs(database.db, handlers);
    expect(await status(id)).toBe("processing");
    const [job] = await queryRows<{ status: string; last_error: string | null }>(
      database.db,
      sql`select status, last_error from jobs where payload->>'withdrawalId' = ${String(id)}`,
    );
    expect(job).toMatchObject({ status: "queued" });
    expect(job!.last_error).toContain("spendable LTC coins do not cover");
    expect(await receivedAt(to)).toBe(0n);

    await fundKassa("1");
    await database.db.execute(
      sql`update jobs set run_at = now() where payload->>'withdrawalId' = ${String(id)} and status = 'queued'`,
    );
    await runDueJobs(database.db, handlers);
    expect(await status(id)).toBe("sending");
    expect(await receivedAt(to)).toBe(wanted);
    await customer.mine(CONFIRMATIONS);
    await trackUtxoPayouts(database.db, network);
    expect(await status(id)).toBe("confirmed");
    await expectLedgerBalanced();
  });
  it("every payout kind leaves from Kassa's coins: an instant payout, one converted from another balance, one approved over a limit", async () => {
    const party = {
      end_user_reference: "payee",
      sender_type: "legal",
      sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
      receiver_type: "self",
    };
    await fundKassa("1", "1", "1");
    const [instantTo, convertTo, approvedTo] = [
      await freshAddress(),
      await freshAddress(),
      await freshAddress(),
    ];
    const instant = await createWithdrawal(
      database.db,
      instantWithdrawalInput(
        merchantId,
        instantWithdrawalRequest.parse({
          sender_currency: "LTC",
          sender_amount: "0.05",
          address: instantTo,
          foreign_id: `instant-${++counter}`,
          ...party,
        }),
        pricing,
      ),
    );
    // BTC is simulated in this installation: the merchant's BTC is sold for LTC paid from Kassa's coins.
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal("0.1"),
      isSandbox: true,
    });
    const converted = await createWithdrawal(
      database.db,
      withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          currency: "BTC",
          convert_to: "LTC",
          amount: "0.001",
          address: convertTo,
          foreign_id: `convert-${++counter}`,
          ...party,
        }),
        pricing,
      ),
    );
    await setWithdrawalLimits(database.db, { merchantId, currency: "LTC", perWithdrawal: "0.1" });
    const held = await withdraw("0.3", approvedTo);
    expect(held.status).toBe("pending");
    await runDueJobs(database.db, handlers);
    expect(await txidOf(held.id)).toBeNull();
    const [owner] = await queryRows<{ id: number }>(
      database.db,
      sql`select id from users where merchant_id = ${merchantId} order by id limit 1`,
    );
    await decideWithdrawal(database.db, {
      merchantId,
      withdrawalId: held.id,
      userId: Number(owner!.id),
      decision: "approve",
    });
    await setWithdrawalLimits(database.db, { merchantId, currency: "LTC", perWithdrawal: "1000000" });
    await runDueJobs(database.db, handlers);
    await customer.mine(CONFIRMATIONS);
    await trackUtxoPayouts(database.db, network);
    const [convertedRow] = await queryRows<{ sent_amount: string }>(
      database.db,
      sql`select sent_amount::text from withdrawals where transaction_id = ${converted.id}`,
    );
    expect(await receivedAt(instantTo)).toBe(5_000_000n);
    expect(await receivedAt(convertTo)).toBe(parseDecimal(convertedRow!.sent_amount));
    expect(await receivedAt(convertTo)).toBeGreaterThan(0n);
    expect(await receivedAt(approvedTo)).toBe(30_000_000n);
    for (const id of [instant.id, converted.id, held.id]) expect(await status(id)).toBe("confirmed");
    await expectLedgerBalanced();
  });
  it("a payout whose input a reorganisation spent elsewhere becomes an incident, never a second payment", async () => {
    const keys = deriveAccountKeys(await loadHdSeed(database.db, database.box));
    const { address } = await takeAddress(database.db, keys, {
      merchantId,
      foreignId: `big-${++counter}`,
      currency: "LTC",
    });
    const deposit = await customer.pay(address, parseDecimal("30"));
    const [depositBlock] = await customer.mine(1);
    await customer.mine(CONFIRMATIONS - 1);
    await watch();
    // More than all of Kassa's other coins together: the payout must spend the new one.
    const to = await freshAddress();
    const { id } = await withdraw("25", to);
    await runDueJobs(database.db, handlers);
    const payoutTxid = (await txidOf(id))!;
    const spends = (await transaction(payoutTxid)).vin.map((i) => i.txid);
    expect(spends).toContain(deposit);

    // A reorganisation takes the deposit's block, and the customer's double spend takes its place.
    await customer.rpc("invalidateblock", [depositBlock]);
    await doubleSpend(customer, deposit);
    await customer.mine(CONFIRMATIONS + 2);
    await watch();
    const pass = await trackUtxoPayouts(database.db, network);
    expect(pass).toMatchObject({ incidents: 1, resent: 0 });
    expect(await trackUtxoPayouts(database.db, network)).toMatchObject({ incidents: 0, resent: 0 });
    const [payout] = await database.db.select().from(utxoPayouts).where(eq(utxoPayouts.txid, payoutTxid));
    expect(payout!.status).toBe("incident");
    // The withdrawal is neither refunded nor paid again; the operator sees both incidents.
    expect(await status(id)).toBe("sending");
    expect(await receivedAt(to)).toBe(0n);
    const { incidents } = (await runCliCommand(
      { name: "chain.incidents", args: {} },
      { db: database.db, box: database.box, isSandbox: true },
    )) as { incidents: { kind: string; utxo_payout_id: number | null; message: string }[] };
    const kinds = incidents.map((i) => i.kind);
    expect(kinds).toContain("credited_payment_removed");
    const incident = incidents.find((i) => i.kind === "payout_inputs_spent")!;
    expect(incident.utxo_payout_id).toBe(payout!.id);
    expect(incident.message).toContain(`withdrawal ${id}`);
  });
});
