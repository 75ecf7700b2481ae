import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { getCurrency } from "@/lib/currencies/registry";
import { queryRows } from "@/lib/db/client";
import { creditDeposit } from "@/lib/deposits/credit-deposit";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { listBalances } from "@/lib/ledger/list-balances";
import { parseDecimal } from "@/lib/money";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pricingWith, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";

// The operator's denylist, as the installation reads it (docs/compliance.md), set
// before anything reads the configuration.
const DENIED = vi.hoisted(() => {
  const { mkdtempSync, writeFileSync } = require("node:fs") as typeof import("node:fs");
  const dir = mkdtempSync(`${require("node:os").tmpdir()}/kassa-credit-decision-`);
  const address = "LTCdenied2222222222222222222222222";
  writeFileSync(`${dir}/denylist.txt`, `${address}\n`);
  process.env.KASSA_SCREENING_DENYLIST = `${dir}/denylist.txt`;
  return address;
});
const SPREAD = 5_000;

/**
 * Crediting decides before it writes (lib/deposits/credit-deposit.ts): a confirmed payment goes from
 * `seen` straight to `held` when screening holds it, or straight to `credited`, never `credited` and
 * then back. Every status change of a deposit is observed by a trigger the test installs on the
 * table, so a write undone later in the same transaction is seen too.
 */
describe(`crediting decides held or credited before writing, on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let customer = 0;
  const db = () => database.db;

  /** Every status change of the deposit with this chain txid, in order. */
  const transitionsOf = async (txid: string) =>
    (
      await queryRows<{ from_status: string; to_status: string }>(
        db(),
        sql`select l.from_status, l.to_status from test_deposit_transitions l
            join deposits d on d.id = l.deposit_id
            join chain_transactions c on c.id = d.chain_transaction_id
            where c.txid = ${txid} order by l.id`,
      )
    ).map((row) => `${row.from_status} -> ${row.to_status}`);
  const depositOf = async (txid: string) => {
    const [row] = await queryRows<{ id: string; transaction_id: string; status: string }>(
      db(),
      sql`select d.id::text, d.transaction_id::text, d.status from deposits d
          join chain_transactions c on c.id = d.chain_transaction_id where c.txid = ${txid}`,
    );
    return { id: Number(row!.id), transactionId: Number(row!.transaction_id), status: row!.status };
  };
  const journalsOf = async (transactionId: number) =>
    Number(
      (
        await queryRows<{ n: string }>(
          db(),
          sql`select count(*)::text as n from journals where transaction_id = ${transactionId}`,
        )
      )[0]!.n,
    );
  const balance = async (currency: string) =>
    (await listBalances(db(), merchantId)).find((b) => b.currency === currency)?.balance ?? 0n;
  /** A new customer's permanent LTC address paid `amount` from `sender`, seen (not confirmed). */
  async function payAddress(amount: string, sender?: string) {
    const address = await takeAddress(db(), testKeys, {
      merchantId,
      foreignId: `decision-customer-${++customer}`,
      currency: "LTC",
    });
    return sendSandboxPayment(db(), {
      currency: "LTC",
      address: address.address,
      amount: parseDecimal(amount),
      sender_address: sender,
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Decision");
    await db().execute(sql`create table test_deposit_transitions (
      id serial primary key, deposit_id bigint not null, from_status text not null, to_status text not null)`);
    await db().execute(sql`create function test_log_deposit_status() returns trigger language plpgsql as $$
      begin
        if new.status is distinct from old.status then
          insert into test_deposit_transitions (deposit_id, from_status, to_status)
          values (new.id, old.status, new.status);
        end if;
        return new;
      end $$`);
    await db().execute(sql`create trigger test_deposit_status after update on deposits
      for each row execute function test_log_deposit_status()`);
  });
  afterAll(() => database.drop());

  it("holds a screened payment straight from seen, crediting and booking nothing", async () => {
    const before = await balance("LTC");
    const payment = await payAddress("1", DENIED);
    await confirm(db(), "LTC");
    const deposit = await depositOf(payment.txid);
    expect(deposit.status).toBe("held");
    expect(await transitionsOf(payment.txid)).toEqual(["seen -> held"]);
    expect(await journalsOf(deposit.transactionId)).toBe(0);
    expect(await balance("LTC")).toBe(before);
  });

  it("holds an invoice's screened payment straight from seen, the invoice still processing", async () => {
    const invoice = await createFixedInvoice(db(), merchantId, "LTC", { end_user_reference: "held-buyer" });
    const payment = await sendSandboxPayment(db(), {
      currency: "LTC",
      address: invoice.address!.address,
      amount: invoice.invoice.senderAmount!,
      sender_address: DENIED,
    });
    await confirm(db(), "LTC");
    expect(await transitionsOf(payment.txid)).toEqual(["seen -> held"]);
    const held = (await loadInvoiceById(db(), invoice.id))!;
    expect(held.status).toBe("processing");
    expect(held.invoice.creditedAmount).toBe(0n);
    expect(await journalsOf(invoice.id)).toBe(0);
  });

  it("credits a clean payment straight from seen, exactly once however many workers race", async () => {
    const before = await balance("LTC");
    const payment = await payAddress("2");
    await mineSandboxBlocks(db(), { currency: "LTC", count: getCurrency("LTC").confirmations });
    const { id } = await depositOf(payment.txid);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => creditDeposit(db(), { depositId: id, pricing: pricingWith(SPREAD) })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await transitionsOf(payment.txid)).toEqual(["seen -> credited"]);
    const deposit = await depositOf(payment.txid);
    expect(deposit.status).toBe("credited");
    expect(await journalsOf(deposit.transactionId)).toBe(1);
    // 0.5% deposit fee, rounded up against the merchant.
    expect(await balance("LTC")).toBe(before + parseDecimal("2") - parseDecimal("0.01"));
    // Claimed once: another try finds nothing left to decide.
    expect(await creditDeposit(db(), { depositId: id, pricing: pricingWith(SPREAD) })).toBe(false);
    expect(await transitionsOf(payment.txid)).toEqual(["seen -> credited"]);
    expect(await ledgerInvariants(db())).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });
});
