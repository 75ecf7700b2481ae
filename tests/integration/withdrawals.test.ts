import { sql } from "drizzle-orm";
import type { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mineDueSandboxBlocks, mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { queryRows } from "@/lib/db/client";
import { runDueJobs } from "@/lib/jobs/runner";
import { BALANCE_WRITERS } from "@/lib/ledger/balance-queue";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { instantWithdrawalRequest, withdrawalRequest } from "@/lib/schemas/withdrawals";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { findTransactionId } from "@/lib/transactions/find-transaction";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { instantWithdrawalInput, withdrawalInput } from "@/lib/withdrawals/from-request";
import { priceWithdrawal } from "@/lib/withdrawals/price-withdrawal";
import { rejectWithdrawal } from "@/lib/withdrawals/process-withdrawal";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { handlers, pricing } from "../support/invoices";
import { ledgerInvariants, lockWaiters, whileBalanceHeld } from "../support/ledger";
import { waitUntil } from "../support/wait";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const LTC_ADDRESS = "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh";
const XRP_ADDRESS = "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3";

let counter = 0;
function request(overrides: Record<string, unknown> = {}) {
  counter++;
  return withdrawalRequest.parse({
    currency: "BTC",
    amount: "0.01",
    address: BTC_ADDRESS,
    foreign_id: `payout-${counter}-${Math.random().toString(36).slice(2)}`,
    end_user_reference: `payee-${counter}`,
    sender_type: "legal",
    sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
    receiver_type: "self",
    ...overrides,
  });
}

describe(`withdrawals on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let otherMerchantId: number;
  const balance = async (currency: string, merchant = merchantId) =>
    (await listBalances(database.db, merchant)).find((b) => b.currency === currency)!.balance;
  const withdraw = (overrides: Record<string, unknown> = {}) =>
    createWithdrawal(database.db, withdrawalInput(merchantId, request(overrides), pricing));
  const info = (id: number) => describeTransaction(database.db, id);

  beforeAll(async () => {
    database = await createTestDatabase();
    const password = "long password 1";
    merchantId = (
      await createMerchant(database.db, database.box, { name: "Pay", email: "pay@example.com", password })
    ).merchantId;
    otherMerchantId = (
      await createMerchant(database.db, database.box, { name: "Oth", email: "oth@example.com", password })
    ).merchantId;
    for (const [currency, amount] of [
      ["BTC", "1"],
      ["EUR", "10000"],
      ["XRP", "1000"],
    ] as const) {
      await creditSandboxBalance(database.db, {
        merchantId,
        currency,
        amount: parseDecimal(amount),
        isSandbox: true,
      });
    }
  });
  afterAll(() => database.drop());

  it("sends crypto without conversion: debited with fees at once, sent by a job, confirmed on chain", async () => {
    const before = await balance("BTC");
    const { id, price } = await withdraw({ amount: "0.01" });
    expect(price).toMatchObject({
      principal: parseDecimal("0.01"),
      sent: parseDecimal("0.01"),
      networkFee: parseDecimal("0.00002"),
    });
    expect(await balance("BTC")).toBe(before - parseDecimal("0.01002"));
    let described = await info(id);
    expect(described).toMatchObject({ type: "withdrawal", status: "not_confirmed", error: "" });
    expect(described.transactions[0]).toMatchObject({
      transaction_type: "blockchain",
      type: "withdrawal",
      txid: null,
    });

    await runDueJobs(database.db, handlers); // broadcast
    described = await info(id);
    const txid = described.transactions[0]!.txid!;
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    await mineSandboxBlocks(database.db, { currency: "BTC", count: 2 });
    await runDueJobs(database.db, handlers);
    described = await info(id);
    expect(described).toMatchObject({
      status: "confirmed",
      currency_sent: { currency: "BTC", amount: "0.01000000" },
      currency_received: { currency: "BTC", amount: "0.01000000" },
      fees: [
        { type: "withdrawal", currency: "BTC", amount: "0.00000000" },
        { type: "mining", currency: "BTC", amount: "0.00002000" },
      ],
      crypto_address: { currency: "BTC", address: BTC_ADDRESS, tag: null },
    });
    expect(described.transactions[0]!.confirmations).toBe("2");
    // Found by each identifier, and by nobody else.
    expect(await findTransactionId(database.db, merchantId, { txid })).toBe(id);
    expect(await findTransactionId(database.db, otherMerchantId, { txid })).toBeUndefined();
    expect(await findTransactionId(database.db, otherMerchantId, { id })).toBeUndefined();
  });

  it("converts EUR to BTC at the stated rate and spread, with the exchange leg recorded", async () => {
    const before = await balance("EUR");
    const { id, price } = await withdraw({ currency: "EUR", amount: "500", convert_to: "BTC" });
    const quote = await priceWithdrawal(database.db, {
      merchantId,
      source: "EUR",
      target: "BTC",
      amount: parseDecimal("500"),
      pricing,
    });
    expect(price.sent).toBe(quote.sent); // a quote and the withdrawal that follows it agree
    // Independently: 500 EUR × 1.08 USD × (1 − 0.5%) ÷ 65000 USD per BTC, rounded down to 10^-8 BTC.
    const worth = parseDecimal("500") * parseDecimal("1.08") * 995_000n;
    const perBtc = parseDecimal("65000") * 1_000_000n;
    expect(price.sent * perBtc <= worth && worth < (price.sent + 1n) * perBtc).toBe(true);
    expect(price.withdrawalFee).toBe(parseDecimal("5")); // EUR: 1%
    expect(await balance("EUR")).toBe(before - price.totalDebit);
    expect(price.totalDebit).toBe(parseDecimal("500") + parseDecimal("5") + price.networkFee);
    await runDueJobs(database.db, handlers);
    const described = await info(id);
    expect(described.type).toBe("withdrawal_exchange");
    expect(described.transactions[0]).toMatchObject({
      transaction_type: "exchange",
      currency: "EUR",
      currency_to: "BTC",
      amount: "500.00000000",
    });
    expect(described.additional_details).toMatchObject({ spread_percent: "0.5" });
  });

  it("converts to an exact amount_to", async () => {
    const { price } = await withdraw({
      currency: "EUR",
      amount: undefined,
      amount_to: "0.002",
      convert_to: "BTC",
    });
    expect(price.sent).toBe(parseDecimal("0.002"));
    // What is debited converts to at least what is sent (rounded once, against the merchant).
    // Independently of the pricing code: principal EUR × 1.08 USD × (1 − 0.5%) ≥ 0.002 BTC × 65000 USD,
    // and by less than one cent of EUR more.
    const value = (eur: bigint) => eur * parseDecimal("1.08") * 995_000n;
    const owed = parseDecimal("0.002") * parseDecimal("65000") * 1_000_000n;
    expect(value(price.principal) >= owed).toBe(true);
    expect(value(price.principal - parseDecimal("0.01")) < owed).toBe(true);
  });

  it("returns the funds when the network refuses the transaction", async () => {
    const before = await balance("BTC");
    const { id } = await withdraw({ address: "1BitcoinEaterAddressDontSendf59kuE" });
    await runDueJobs(database.db, handlers);
    const described = await info(id);
    expect(described).toMatchObject({ status: "cancelled", fees: [] });
    expect(described.error).toMatch(/refused/);
    expect(described).not.toHaveProperty("currency_sent");
    expect(await balance("BTC")).toBe(before);
  });

  it("returns the funds when an operator rejects a withdrawal before it leaves", async () => {
    const before = await balance("BTC");
    const { id } = await withdraw();
    const rejected = await rejectWithdrawal(database.db, { withdrawalId: id, reason: "Compliance review" });
    expect(rejected.status).toBe("rejected");
    expect(await balance("BTC")).toBe(before);
    await runDueJobs(database.db, handlers); // the queued broadcast finds nothing to send
    expect((await info(id)).status).toBe("cancelled");
    expect((await info(id)).transactions.at(-1)!.txid).toBeNull();
  });

  it("refuses what would overdraw, a wrong tag, and a wrong network's address", async () => {
    await expect(withdraw({ amount: "5" })).rejects.toMatchObject({
      fields: { amount: expect.stringMatching(/Insufficient funds/) },
    });
    await expect(withdraw({ currency: "XRP", amount: "50", address: XRP_ADDRESS })).rejects.toMatchObject({
      fields: { tag: expect.stringMatching(/destination tag is required/) },
    });
    await expect(
      withdraw({ currency: "XRP", amount: "50", address: XRP_ADDRESS, tag: "abc" }),
    ).rejects.toMatchObject({
      fields: { tag: expect.stringMatching(/whole number/) },
    });
    await expect(withdraw({ tag: "123" })).rejects.toMatchObject({
      fields: { tag: expect.stringMatching(/does not use a tag/) },
    });
    await expect(withdraw({ address: LTC_ADDRESS })).rejects.toMatchObject({
      fields: { address: expect.stringMatching(/Bitcoin/) },
    });
    await expect(withdraw({ currency: "EUR", amount: "100" })).rejects.toMatchObject({
      fields: { currency: expect.stringMatching(/convert_to/) },
    });
    await expect(withdraw({ amount: "0.00005" })).rejects.toMatchObject({
      fields: { amount: expect.stringMatching(/at least/) },
    });
    const xrp = await withdraw({ currency: "XRP", amount: "50", address: XRP_ADDRESS, tag: "4294967295" });
    expect(xrp.tag).toBe("4294967295");
  });

  it('keeps foreign_id as sent and unique across kinds: 123 and "123" are the same id', async () => {
    const { id } = await withdraw({ foreign_id: { batch: 7, line: 3 } });
    expect((await info(id)).foreign_id).toEqual({ batch: 7, line: 3 });
    await withdraw({ foreign_id: 123 });
    await expect(withdraw({ foreign_id: "123" })).rejects.toMatchObject({
      fields: { foreign_id: "The foreign id has already been taken." },
    });
    expect(await findTransactionId(database.db, merchantId, { foreign_id: 123 })).toBeDefined();
    // A string stays a string however it looks: JSON text inside it is not read as JSON.
    for (const foreignId of ["456", "12345678901234567890", "true", "null", '{"a":1}', 789]) {
      const created = await withdraw({ foreign_id: foreignId });
      expect((await info(created.id)).foreign_id).toStrictEqual(foreignId);
    }
  });

  it("sends instant withdrawals as withdrawal_instant", async () => {
    const body = instantWithdrawalRequest.parse({
      sender_currency: "BTC",
      sender_amount: 0.001,
      address: BTC_ADDRESS,
      foreign_id: "instant-1",
      end_user_reference: "payee-instant",
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
      receiver_type: "natural",
      receiver_data: { first_name: "Alan", last_name: "Turing", date_of_birth: "1912-06-23" },
    });
    const { id } = await createWithdrawal(database.db, instantWithdrawalInput(merchantId, body, pricing));
    await runDueJobs(database.db, handlers);
    await mineSandboxBlocks(database.db, { currency: "BTC", count: 2 });
    await runDueJobs(database.db, handlers);
    expect(await info(id)).toMatchObject({ type: "withdrawal_instant", status: "confirmed" });
  });

  it("is confirmed by the sandbox block timer alone, which keeps mining while a payout lacks confirmations", async () => {
    const { id } = await withdraw({ amount: "0.001" });
    await runDueJobs(database.db, handlers); // broadcast into the sandbox mempool
    const required = 2; // BTC's confirmations in the registry
    let blocks = 0;
    for (let round = 0; round < required + 2 && (await info(id)).status !== "confirmed"; round++) {
      const mined = await mineDueSandboxBlocks(database.db, 0);
      blocks += mined.filter((block) => block.currency === "BTC").length;
      await runDueJobs(database.db, handlers);
    }
    expect((await info(id)).status).toBe("confirmed");
    expect(blocks).toBe(required);
    // Nothing waits any more: the timer leaves the network alone.
    expect((await mineDueSandboxBlocks(database.db, 0)).map((block) => block.currency)).not.toContain("BTC");
  });

  it("names the destination in crypto_address.id: one address record per merchant, network address and tag", async () => {
    const first = await withdraw({ amount: "0.001" });
    const second = await withdraw({ amount: "0.002" });
    const elsewhere = await withdraw({
      amount: "0.001",
      address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    });
    const other = await createWithdrawal(
      database.db,
      withdrawalInput(otherMerchantId, request(), pricing),
    ).catch(
      () => undefined, // the other merchant has no BTC: its refusal must not leave an address record either
    );
    expect(other).toBeUndefined();
    const addressOf = async (id: number) => (await info(id)).crypto_address!;
    const a = await addressOf(first.id);
    const b = await addressOf(second.id);
    const c = await addressOf(elsewhere.id);
    expect(a.id).toBe(b.id);
    expect(c.id).not.toBe(a.id);
    const [row] = await queryRows<{ count: string }>(
      database.db,
      sql`select count(*)::text as count from payout_addresses where merchant_id = ${otherMerchantId}`,
    );
    expect(row!.count).toBe("0");
    const [record] = await queryRows<{ address: string; tag: string }>(
      database.db,
      sql`select address, tag from payout_addresses where id = ${a.id}`,
    );
    expect(record).toEqual({ address: BTC_ADDRESS, tag: "" });
  });

  it("keeps the ledger balanced", async () => {
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });
});

describe(`racing withdrawals on ${testDriver}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  /** A new merchant with `amount` of `currency` in its balance. */
  async function fundedMerchant(name: string, currency: string, amount: string): Promise<number> {
    const { merchantId } = await createMerchant(database.db, database.box, {
      name,
      email: `${name.toLowerCase()}@example.com`,
      password: "long password 1",
    });
    await creditSandboxBalance(database.db, {
      merchantId,
      currency,
      amount: parseDecimal(amount),
      isSandbox: true,
    });
    return merchantId;
  }

  it("accepts exactly the 40 of 100 concurrent withdrawals that the balance covers, fees included", async () => {
    // 0.1 LTC + 0.0001 LTC network fee each: 40 of them cost exactly 4.004 LTC.
    const merchantId = await fundedMerchant("Race", "LTC", "4.004");
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () =>
        createWithdrawal(
          database.db,
          withdrawalInput(
            merchantId,
            request({ currency: "LTC", amount: "0.1", address: LTC_ADDRESS }),
            pricing,
          ),
        ),
      ),
    );
    const accepted = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(accepted).toHaveLength(40);
    expect(refused.every((r) => /Insufficient funds/.test(r.reason.fields?.amount))).toBe(true);
    expect((await listBalances(database.db, merchantId)).find((b) => b.currency === "LTC")!.balance).toBe(0n);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  // PGlite has a single session, so no second one can hold the lock; on PostgreSQL it can.
  if (testDriver === "pg") {
    it("takes the merchant's balance lock last: everything else is written before it waits", async () => {
      const merchantId = await fundedMerchant("Lock", "BTC", "1");
      const withdraw = () => createWithdrawal(database.db, withdrawalInput(merchantId, request(), pricing));
      await withdraw(); // the platform's clearing account exists from here on
      // Sequences are not transactional: they show what a statement has inserted while it waits.
      const sequences = async () =>
        (
          await queryRows<{ transactions: string; entries: string; jobs: string }>(
            database.db,
            sql`select (select last_value from transactions_id_seq)::text as transactions,
                       (select last_value from ledger_entries_id_seq)::text as entries,
                       (select last_value from jobs_id_seq)::text as jobs`,
          )
        )[0]!;
      const holder = await (database.driver as { kind: "pg"; pool: Pool }).pool.connect();
      try {
        await holder.query("begin");
        await holder.query(
          "select id from ledger_accounts where merchant_id = $1 and kind = 'balance' for update",
          [merchantId],
        );
        const before = await sequences();
        const pending = withdraw();
        const waiting = await waitUntil(
          async () =>
            (
              await queryRows(
                database.db,
                sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
              )
            ).length || false,
          { what: "the withdrawal waits for the balance row's lock" },
        );
        expect(waiting).toBe(1);
        const during = await sequences();
        expect(Number(during.transactions)).toBeGreaterThan(Number(before.transactions));
        expect(Number(during.entries)).toBe(Number(before.entries) + 2);
        expect(Number(during.jobs)).toBeGreaterThan(Number(before.jobs));
        await holder.query("commit");
        await pending;
      } finally {
        holder.release();
      }
    });

    /** Whether `promise` has settled: a flag a test can wait on. */
    const settled = (promise: Promise<unknown>) => {
      const state = { isSettled: false };
      promise.then(
        () => (state.isSettled = true),
        () => (state.isSettled = true),
      );
      return state;
    };

    it("takes the shared clearing row last: a withdrawal waiting for its merchant's balance holds no other merchant back", async () => {
      const other = await fundedMerchant("Other", "BTC", "1");
      // The platform's BTC clearing account exists before the waiting merchant's balance: the lower id.
      await createWithdrawal(database.db, withdrawalInput(other, request(), pricing));
      const waiting = await fundedMerchant("Waiting", "BTC", "1");
      let pending: Promise<unknown> | undefined;
      await whileBalanceHeld(database, { merchantId: waiting, currency: "BTC" }, async () => {
        pending = createWithdrawal(database.db, withdrawalInput(waiting, request(), pricing));
        await waitUntil(async () => (await lockWaiters(database.db)) === 1, {
          what: "the withdrawal waits for its merchant's balance row",
        });
        const another = settled(createWithdrawal(database.db, withdrawalInput(other, request(), pricing)));
        await waitUntil(() => another.isSettled, {
          what: "another merchant's withdrawal in the same currency is written meanwhile",
        });
      });
      await pending;
      expect(await ledgerInvariants(database.db)).toEqual({
        nonZeroCurrencies: [],
        accountsNotMatchingEntries: 0,
        negativeMerchantBalances: 0,
      });
    });

    it(`lets ${BALANCE_WRITERS} of a burst of one merchant's withdrawals wait on its balance, the rest in turn, and leaves connections for everyone else`, async () => {
      // 0.1 LTC + 0.0001 LTC network fee each: 40 of them cost exactly 4.004 LTC, more requests
      // than the test database's 20 pooled connections.
      const burst = await fundedMerchant("Burst", "LTC", "4.004");
      const other = await fundedMerchant("Bystander", "LTC", "1");
      const withdraw = (merchant: number) =>
        createWithdrawal(
          database.db,
          withdrawalInput(
            merchant,
            request({ currency: "LTC", amount: "0.1", address: LTC_ADDRESS }),
            pricing,
          ),
        );
      let results: Promise<PromiseSettledResult<unknown>[]> | undefined;
      await whileBalanceHeld(database, { merchantId: burst, currency: "LTC" }, async () => {
        results = Promise.allSettled(Array.from({ length: 40 }, () => withdraw(burst)));
        await waitUntil(async () => (await lockWaiters(database.db)) >= BALANCE_WRITERS, {
          what: "the first of the burst wait for the balance row",
        });
        const bystander = settled(withdraw(other));
        await waitUntil(() => bystander.isSettled, {
          what: "another merchant's withdrawal is written while the burst waits",
        });
        expect(await lockWaiters(database.db)).toBe(BALANCE_WRITERS);
      });
      const outcomes = await results!;
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(40);
      const left = async (merchant: number) =>
        (await listBalances(database.db, merchant)).find((b) => b.currency === "LTC")!.balance;
      expect(await left(burst)).toBe(0n);
      expect(await left(other)).toBe(parseDecimal("0.8999"));
    });
  }
});
