import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { invoices, ledgerAccounts } from "@/lib/db/schema";
import { cancelInvoice } from "@/lib/invoices/cancel-invoice";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { MAX_AMOUNT, parseDecimal } from "@/lib/money";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { priceWithdrawal } from "@/lib/withdrawals/price-withdrawal";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import {
  confirm,
  createFixedInvoice,
  invoiceRequest,
  pay,
  pricing,
  settings,
  testKeys,
} from "../support/invoices";
import { createTestMerchant, fieldsOf } from "../support/merchants";

/**
 * No amount Kassa derives can become unreadable: each request that would
 * derive an amount past the cap (10^20 whole units) is refused with a field error, and a value
 * already stored above it still reads.
 */
const HUGE_EUR = "99999999999999999999";

describe(`the amount cap on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Cap");
  });
  afterAll(() => database.drop());

  it("refuses an invoice whose amount in sender_currency would pass the cap", async () => {
    const request = invoiceRequest({ amount: HUGE_EUR, sender_currency: "DOGE" });
    const fields = await fieldsOf(createInvoice(database.db, { merchantId, request, settings }));
    expect(fields.sender_currency).toMatch(/too large/);
    // A currency where it fits is still fine: 10^20 EUR × 1.08 / (65000 × 0.995) BTC.
    const btc = await createInvoice(database.db, {
      merchantId,
      request: invoiceRequest({ amount: HUGE_EUR, sender_currency: "BTC" }),
      settings,
      keys: testKeys,
    });
    expect(btc.invoice.senderAmount! <= MAX_AMOUNT).toBe(true);
  });

  it("offers no checkout currency whose amount would pass the cap, and refuses choosing it", async () => {
    const created = await createInvoice(database.db, {
      merchantId,
      request: invoiceRequest({ amount: HUGE_EUR }),
      settings,
    });
    const view = await checkoutView(database.db, created, { pricing });
    expect(view.currencies.find((c) => c.currency === "DOGE")).toMatchObject({ is_available: false });
    expect(view.currencies.find((c) => c.currency === "BTC")).toMatchObject({ is_available: true });
    const fields = await fieldsOf(
      fixInvoiceCurrency(database.db, {
        token: created.invoice.token,
        currency: "DOGE",
        settings,
        keys: testKeys,
      }),
    );
    expect(fields.currency).toMatch(/too large/);
  });

  it("still reads and cancels an invoice stored above the cap before this check existed", async () => {
    const created = await createFixedInvoice(database.db, merchantId, "DOGE", { timer: false });
    await database.db
      .update(invoices)
      .set({ senderAmount: MAX_AMOUNT * 7n })
      .where(eq(invoices.transactionId, created.id));
    const record = (await loadInvoiceById(database.db, created.id))!;
    expect(record.invoice.senderAmount).toBe(MAX_AMOUNT * 7n);
    expect((await describeTransaction(database.db, created.id)).id).toBe(created.id);
    expect((await checkoutView(database.db, record, { pricing })).sender_amount).toBe(
      "700000000000000000000.00000000",
    );
    await cancelInvoice(database.db, { merchantId, foreignId: record.foreignId! });
    expect((await loadInvoiceById(database.db, created.id))!.status).toBe("cancelled");
  });

  it("refuses a sandbox payment that would take a balance past the cap", async () => {
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "whale",
      currency: "BTC",
    });
    const to = { address: { address: address.address, tag: "", currency: "BTC" } };
    await pay(database.db, to, MAX_AMOUNT);
    // Seen but not credited yet: it counts all the same.
    expect((await fieldsOf(pay(database.db, to, MAX_AMOUNT))).amount).toMatch(/balance/);
    await confirm(database.db, "BTC");
    expect((await fieldsOf(pay(database.db, to, MAX_AMOUNT))).amount).toMatch(/balance/);
    const [account] = await database.db
      .select()
      .from(ledgerAccounts)
      .where(
        and(
          eq(ledgerAccounts.merchantId, merchantId),
          eq(ledgerAccounts.currency, "BTC"),
          eq(ledgerAccounts.kind, "balance"),
        ),
      );
    expect(account!.balance <= MAX_AMOUNT).toBe(true);
    expect(account!.balance > 0n).toBe(true);
  });

  it("refuses a sandbox payment that would take an invoice's paid sum past the cap", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "ETH", {
      timer: false,
      currency: "ETH",
      amount: "1",
    });
    await pay(database.db, invoice, MAX_AMOUNT - parseDecimal("1"));
    expect((await fieldsOf(pay(database.db, invoice, parseDecimal("2")))).amount).toMatch(/paid amount/);
  });

  it("refuses withdrawals and exchange quotes whose converted amounts would pass the cap", async () => {
    const withdrawal = await fieldsOf(
      priceWithdrawal(database.db, {
        merchantId,
        source: "DOGE",
        target: "BTC",
        amountTo: parseDecimal("100000000000000000000"),
        pricing,
      }),
    );
    expect(withdrawal.amount_to).toMatch(/too large/);
    const quote = await fieldsOf(
      priceWithdrawal(database.db, {
        merchantId,
        source: "DOGE",
        target: "BTC",
        amountTo: parseDecimal("100000000000000000000"),
        pricing,
        fields: { amount: "sender_amount", amountTo: "receiver_amount" },
      }),
    );
    expect(quote.receiver_amount).toMatch(/too large/);
  });

  it("refuses a sandbox credit that would take a balance past the cap, and writes nothing", async () => {
    const credit = (amount: bigint) =>
      creditSandboxBalance(database.db, { merchantId, currency: "LTC", amount, isSandbox: true });
    await credit(MAX_AMOUNT - parseDecimal("1"));
    const before = (await listBalances(database.db, merchantId)).find((b) => b.currency === "LTC")!;
    expect(before.balance).toBe(MAX_AMOUNT - parseDecimal("1"));
    expect((await fieldsOf(credit(parseDecimal("2")))).amount).toMatch(/largest amount/);
    const after = (await listBalances(database.db, merchantId)).find((b) => b.currency === "LTC")!;
    expect(after.balance).toBe(before.balance);
    // Up to the cap itself is still a credit like any other.
    await credit(parseDecimal("1"));
    const full = (await listBalances(database.db, merchantId)).find((b) => b.currency === "LTC")!;
    expect(full.balance).toBe(MAX_AMOUNT);
  });

  it("still lists a balance stored above the cap before this check existed", async () => {
    const other = await createMerchant(database.db, database.box, {
      name: "Over",
      email: "over@example.com",
      password: "long password 1",
    });
    await creditSandboxBalance(database.db, {
      merchantId: other.merchantId,
      currency: "XRP",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
    // What two maximal payments could leave behind before the cap was enforced on credits.
    await database.db.execute(
      sql`update ledger_accounts set balance = 200000000000000000000.5
          where merchant_id = ${other.merchantId} and currency = 'XRP' and kind = 'balance'`,
    );
    const xrp = (await listBalances(database.db, other.merchantId)).find((b) => b.currency === "XRP")!;
    expect(xrp.balance).toBe(2n * MAX_AMOUNT + 50_000_000n);
  });
});
