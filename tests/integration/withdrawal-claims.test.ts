import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChainAdapter } from "@/lib/chain/adapter";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { sandboxAdapter } from "@/lib/chain/sandbox/sandbox-adapter";
import { queryRows } from "@/lib/db/client";
import { jobHandlers } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { broadcastWithdrawal, rejectWithdrawal } from "@/lib/withdrawals/process-withdrawal";
import { sweepWithdrawalClaims } from "@/lib/withdrawals/sweep-withdrawals";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { settings as invoiceSettings, pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const BURN_ADDRESS = "1BitcoinEaterAddressDontSendf59kuE";
/** 0.01 BTC plus the registry's 0.00002 BTC network fee, written out rather than computed by the code under test. */
const DEBIT = parseDecimal("0.01002");

/**
 * The sandbox network seen through a wire the test controls: it counts what is asked of the
 * network, can hold a broadcast until the test lets it through (a slow node), and can lose the
 * answer after the network accepted the transaction (the process died, or the call timed out).
 */
function network(behaviour: { beforeSend?: () => Promise<void>; afterSend?: () => void } = {}) {
  const counts = { broadcasts: 0, lookups: 0 };
  const adapter: ChainAdapter = {
    broadcast: async (db, request, options) => {
      counts.broadcasts++;
      await behaviour.beforeSend?.();
      const result = await sandboxAdapter.broadcast(db, request, options);
      behaviour.afterSend?.();
      return result;
    },
    lookUpBroadcast: async (db, request) => {
      counts.lookups++;
      return sandboxAdapter.lookUpBroadcast(db, request);
    },
  };
  return { adapter, counts, handlers: jobHandlers({ ...handlerSettings, chain: adapter }) };
}

const handlerSettings = {
  pricing: invoiceSettings.pricing,
  mail: { smtpUrl: undefined, from: "Kassa <test@kassa.test>" },
};

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe(`a withdrawal is either sent or refunded, never both, on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let counter = 0;

  const withdraw = (address = BTC_ADDRESS) =>
    createWithdrawal(
      database.db,
      withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          currency: "BTC",
          amount: "0.01",
          address,
          foreign_id: `claim-${++counter}`,
          end_user_reference: "payee",
          sender_type: "legal",
          sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
          receiver_type: "self",
        }),
        pricing,
      ),
    );
  /** The merchant's BTC balance as the sum of its ledger entries, independent of the balance column. */
  const entriesBalance = async () => {
    const [row] = await queryRows<{ total: string }>(
      database.db,
      sql`select coalesce(sum(e.amount), 0)::text as total
          from ledger_entries e join ledger_accounts a on a.id = e.account_id
          where a.merchant_id = ${merchantId} and a.kind = 'balance' and a.currency = 'BTC'`,
    );
    return parseDecimal(row!.total);
  };
  const balanceColumn = async () =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === "BTC")!.balance;
  const journalKinds = async (id: number) =>
    (
      await queryRows<{ kind: string }>(
        database.db,
        sql`select kind from journals where transaction_id = ${id} order by id`,
      )
    ).map((row) => row.kind);
  const payoutsOnChain = async (address: string) =>
    (
      await queryRows<{ count: number }>(
        database.db,
        sql`select count(*)::int as count from chain_transactions where direction = 'out' and address = ${address}`,
      )
    )[0]!.count;
  const stored = async (id: number) =>
    (
      await queryRows<{ status: string; txid: string | null }>(
        database.db,
        sql`select t.status, w.txid from transactions t join withdrawals w on w.transaction_id = t.id
            where t.id = ${id}`,
      )
    )[0]!;
  const expectLedgerBalanced = async () =>
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Claims");
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
  });
  afterAll(() => database.drop());

  it("refuses an operator's reject while the broadcast is in flight, and the payout is recorded once", async () => {
    const before = await entriesBalance();
    const { id } = await withdraw();
    const isSending = deferred();
    const slowNode = deferred();
    const net = network({
      beforeSend: async () => {
        isSending.resolve();
        await slowNode.promise;
      },
    });
    const jobs = runDueJobs(database.db, net.handlers);
    await isSending.promise; // the claim is committed and the network call has started

    await expect(
      rejectWithdrawal(database.db, { withdrawalId: id, reason: "Compliance review" }),
    ).rejects.toMatchObject({
      status: 400,
      fields: { id: "The withdrawal cannot be rejected: it is already being sent to the network." },
    });
    const during = await describeTransaction(database.db, id);
    expect(during).toMatchObject({
      status: "not_confirmed",
      additional_details: { withdrawal_status: "sending" },
    });

    slowNode.resolve();
    await jobs;
    expect(net.counts.broadcasts).toBe(1);
    expect(await payoutsOnChain(BTC_ADDRESS)).toBe(1);
    expect(await journalKinds(id)).toEqual(["withdrawal_debit", "withdrawal_sent"]);
    expect((await stored(id)).txid).toMatch(/^[0-9a-f]{64}$/);
    // Debited once, never refunded: the sum of the entries and the balance column agree.
    expect(await entriesBalance()).toBe(before - DEBIT);
    expect(await balanceColumn()).toBe(before - DEBIT);
    await expect(
      rejectWithdrawal(database.db, { withdrawalId: id, reason: "Too late" }),
    ).rejects.toMatchObject({
      fields: { id: "The withdrawal cannot be rejected: it has already been sent." },
    });
    await expectLedgerBalanced();

    // Confirmation works from the claimed state.
    await mineSandboxBlocks(database.db, { currency: "BTC", count: 2 });
    await runDueJobs(database.db, net.handlers);
    expect(await describeTransaction(database.db, id)).toMatchObject({
      status: "confirmed",
      additional_details: { withdrawal_status: "confirmed" },
    });
  });

  it("settles a claim whose answer was lost by asking the network, without a second broadcast or a refund", async () => {
    const before = await entriesBalance();
    const payoutsBefore = await payoutsOnChain(BTC_ADDRESS);
    const { id } = await withdraw();
    // The node accepts the transaction, then the process dies before it records the answer.
    const net = network({
      afterSend: () => {
        throw new Error("connection reset after the transaction was sent");
      },
    });
    await runDueJobs(database.db, net.handlers);
    expect(net.counts.broadcasts).toBe(1);
    expect(await stored(id)).toEqual({ status: "sending", txid: null });
    expect(await journalKinds(id)).toEqual(["withdrawal_debit"]);
    await expect(
      rejectWithdrawal(database.db, { withdrawalId: id, reason: "Compliance review" }),
    ).rejects.toMatchObject({ status: 400, fields: { id: expect.stringMatching(/being sent/) } });

    // The job is retried after its backoff; time moves forward through the database.
    await database.db.execute(
      sql`update jobs set run_at = now() where dedupe_key = ${`withdrawal-broadcast:${id}`} and status = 'queued'`,
    );
    await runDueJobs(database.db, net.handlers);
    expect(net.counts).toEqual({ broadcasts: 1, lookups: 1 });
    expect(await payoutsOnChain(BTC_ADDRESS)).toBe(payoutsBefore + 1);
    const settled = await stored(id);
    expect(settled.status).toBe("sending");
    expect(settled.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await journalKinds(id)).toEqual(["withdrawal_debit", "withdrawal_sent"]);
    expect(await entriesBalance()).toBe(before - DEBIT);
    expect(await balanceColumn()).toBe(before - DEBIT);
    await expectLedgerBalanced();
  });

  it("the periodic sweep picks up a claim whose job ran out of attempts, once, however many workers sweep", async () => {
    const before = await entriesBalance();
    const { id } = await withdraw();
    const dying = network({
      afterSend: () => {
        throw new Error("timed out waiting for the node");
      },
    });
    const key = `withdrawal-broadcast:${id}`;
    await database.db.execute(sql`update jobs set max_attempts = 1 where dedupe_key = ${key}`);
    await runDueJobs(database.db, dying.handlers);
    const jobsOf = () =>
      queryRows<{ status: string }>(
        database.db,
        sql`select status from jobs where dedupe_key = ${key} order by id`,
      );
    expect((await jobsOf()).map((j) => j.status)).toEqual(["failed"]);
    expect(await stored(id)).toEqual({ status: "sending", txid: null });

    // A fresh claim is left to its own job; one older than the threshold is queued again, once.
    expect(await sweepWithdrawalClaims(database.db)).toEqual([]);
    await database.db.execute(
      sql`update withdrawals set claimed_at = now() - interval '10 minutes' where transaction_id = ${id}`,
    );
    const sweeps = await Promise.all([1, 2, 3].map(() => sweepWithdrawalClaims(database.db)));
    expect(sweeps.flat()).toEqual([id]);
    expect((await jobsOf()).map((j) => j.status)).toEqual(["failed", "queued"]);

    const healthy = network();
    await runDueJobs(database.db, healthy.handlers);
    expect(healthy.counts).toEqual({ broadcasts: 0, lookups: 1 });
    expect((await stored(id)).txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await journalKinds(id)).toEqual(["withdrawal_debit", "withdrawal_sent"]);
    expect(await entriesBalance()).toBe(before - DEBIT);
    expect(await sweepWithdrawalClaims(database.db)).toEqual([]);
    await expectLedgerBalanced();
  });

  it("sends a claim again under the same reference when the network never saw it", async () => {
    const { id } = await withdraw();
    // The process died after the claim committed, before the network call.
    const net = network({
      beforeSend: async () => {
        throw new Error("the process died");
      },
    });
    await runDueJobs(database.db, net.handlers);
    expect(await stored(id)).toEqual({ status: "sending", txid: null });
    await database.db.execute(
      sql`update jobs set run_at = now() where dedupe_key = ${`withdrawal-broadcast:${id}`} and status = 'queued'`,
    );
    const healthy = network();
    await runDueJobs(database.db, healthy.handlers);
    expect(healthy.counts).toEqual({ broadcasts: 1, lookups: 1 });
    expect((await stored(id)).txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await journalKinds(id)).toEqual(["withdrawal_debit", "withdrawal_sent"]);
    await expectLedgerBalanced();
  });

  it("returns the funds exactly once when the network refuses the payout, whoever races to send it", async () => {
    const before = await entriesBalance();
    const { id } = await withdraw(BURN_ADDRESS);
    const net = network();
    await Promise.all([
      broadcastWithdrawal(database.db, { withdrawalId: id, adapter: net.adapter }),
      broadcastWithdrawal(database.db, { withdrawalId: id, adapter: net.adapter }),
      runDueJobs(database.db, net.handlers),
    ]);
    expect(await describeTransaction(database.db, id)).toMatchObject({
      status: "cancelled",
      error: expect.stringMatching(/refused/),
      additional_details: { withdrawal_status: "error" },
    });
    expect(await journalKinds(id)).toEqual(["withdrawal_debit", "withdrawal_refund"]);
    expect(await payoutsOnChain(BURN_ADDRESS)).toBe(0);
    expect(await entriesBalance()).toBe(before);
    expect(await balanceColumn()).toBe(before);
    await expect(
      rejectWithdrawal(database.db, { withdrawalId: id, reason: "Compliance review" }),
    ).rejects.toMatchObject({ status: 400, fields: { id: expect.stringMatching(/refused/) } });
    await expectLedgerBalanced();
  });

  it("still lets an operator reject a withdrawal nobody has claimed yet", async () => {
    const before = await entriesBalance();
    const { id } = await withdraw();
    const rejected = await rejectWithdrawal(database.db, { withdrawalId: id, reason: "Compliance review" });
    expect(rejected.status).toBe("rejected");
    const net = network();
    await runDueJobs(database.db, net.handlers); // the queued broadcast finds nothing to send
    expect(net.counts).toEqual({ broadcasts: 0, lookups: 0 });
    expect(await journalKinds(id)).toEqual(["withdrawal_debit", "withdrawal_refund"]);
    expect(await entriesBalance()).toBe(before);
    await expectLedgerBalanced();
  });
});
