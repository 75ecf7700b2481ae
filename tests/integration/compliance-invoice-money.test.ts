import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { decideReview } from "@/lib/compliance/decide-review";
import { queryRows } from "@/lib/db/client";
import { amountSql, complianceReviews, deposits, invoices } from "@/lib/db/schema";
import { unwindDeposit } from "@/lib/deposits/unwind-deposit";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { expireInvoice } from "@/lib/invoices/expire-invoice";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { setInvoiceStatus } from "@/lib/invoices/set-invoice-status";
import { formatAmount } from "@/lib/money";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, invoiceRequest, pay, settings, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";

// The operator's denylist, as the installation reads it (docs/compliance.md): set before
// anything reads the configuration, the built-in provider is built from it once.
vi.hoisted(() => {
  const { mkdtempSync, writeFileSync } = require("node:fs") as typeof import("node:fs");
  const dir = mkdtempSync(`${require("node:os").tmpdir()}/kassa-screening-money-`);
  writeFileSync(
    `${dir}/denylist.txt`,
    "LTCdenied1111111111111111111111111\nBTCdenied1111111111111111111111111\n",
  );
  process.env.KASSA_SCREENING_DENYLIST = `${dir}/denylist.txt`;
});

const DENIED_LTC = "LTCdenied1111111111111111111111111";

/**
 * An invoice's sums and outcome when a payment held for compliance review is rejected, or another is
 * taken back while one is held: a held payment is in flight (the invoice neither closes nor expires
 * under it), a rejected payment to an address shown before a currency switch leaves the paid sum
 * alone, and payments credited while one was held are judged once it is gone (never failed short).
 */
describe(`invoice sums around held and rejected payments on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let userId: number;

  const db = () => database.db;
  const reload = async (id: number) => (await loadInvoiceById(db(), id))!;
  const choose = (token: string, currency: string) =>
    fixInvoiceCurrency(db(), { token, currency, settings, keys: testKeys });
  const chosen = async (currency: string) => {
    const created = await createInvoice(db(), { merchantId, request: invoiceRequest(), settings });
    return choose(created.invoice.token, currency);
  };
  const depositsOf = (id: number) =>
    db().select().from(deposits).where(eq(deposits.transactionId, id)).orderBy(asc(deposits.id));
  /** Pays the invoice's address from the denylisted LTC sender: the payment is held once confirmed. */
  const payDenied = (address: { address: string }, amount: bigint) =>
    sendSandboxPayment(db(), {
      currency: "LTC",
      address: address.address,
      amount,
      sender_address: DENIED_LTC,
    });
  async function decide(depositId: number, decision: "release" | "reject") {
    const [review] = await db()
      .select()
      .from(complianceReviews)
      .where(and(eq(complianceReviews.depositId, depositId), eq(complianceReviews.status, "held")));
    await decideReview(db(), {
      merchantId,
      reviewId: review!.id,
      userId,
      decision,
      audit: { actor: { kind: "user", userId, email: "money@example.com" } },
      pricing: settings.pricing,
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Held Money");
    const [user] = await queryRows<{ id: string }>(
      db(),
      sql`select id::text from users where merchant_id = ${merchantId}`,
    );
    userId = Number(user!.id);
  });
  afterAll(() => database.drop());

  it("rejects a held payment to the address shown before a switch without touching the new coin's paid sum", async () => {
    const ltc = await chosen("LTC");
    const btc = await choose(ltc.invoice.token, "BTC");
    await payDenied(ltc.address!, ltc.invoice.senderAmount!);
    await confirm(db(), "LTC");
    const [held] = await depositsOf(btc.id);
    expect(held!.status).toBe("held");
    expect((await reload(btc.id)).status).toBe("processing");

    await decide(held!.id, "reject");
    const back = await reload(btc.id);
    expect(back.invoice.paidAmount).toBe(0n);
    expect([back.status, back.invoice.statusReason]).toEqual(["pending", "payment_rejected"]);
    // The checkout asks the whole BTC amount again, not more.
    expect((await checkoutView(db(), back, settings)).remaining_amount).toBe(
      formatAmount(btc.invoice.senderAmount!),
    );
    expect((await ledgerInvariants(db())).nonZeroCurrencies).toEqual([]);
  });

  it("confirms an invoice paid in full once the extra payment held beside it is rejected", async () => {
    const invoice = await chosen("LTC");
    const due = invoice.invoice.senderAmount!;
    await pay(db(), invoice, due);
    await payDenied(invoice.address!, due / 10n);
    await confirm(db(), "LTC");
    const [credited, held] = await depositsOf(invoice.id);
    expect([credited!.status, held!.status]).toEqual(["credited", "held"]);
    expect((await reload(invoice.id)).status).toBe("processing");

    await decide(held!.id, "reject");
    const done = await reload(invoice.id);
    expect([done.status, done.invoice.statusReason]).toEqual(["confirmed", "paid"]);
    expect(done.invoice.paidAmount).toBe(due);
    expect(done.invoice.confirmedAmount).toBe(due);
  });

  it("confirms at its deadline, never fails short, an invoice left pending with its full payment credited", async () => {
    const invoice = await chosen("LTC");
    const due = invoice.invoice.senderAmount!;
    await pay(db(), invoice, due);
    await payDenied(invoice.address!, due / 10n);
    await confirm(db(), "LTC");
    const [, held] = await depositsOf(invoice.id);
    // The state an earlier reject left such an invoice in: the held payment out of the sums, `pending`.
    await db().transaction(async (tx) => {
      await tx.update(deposits).set({ status: "rejected" }).where(eq(deposits.id, held!.id));
      await tx
        .update(invoices)
        .set({
          paidAmount: sql`${invoices.paidAmount} - ${amountSql(held!.amount)}`,
          expiresAt: sql`now() - interval '1 second'`,
        })
        .where(eq(invoices.transactionId, invoice.id));
      await setInvoiceStatus(tx, invoice.id, "pending", "payment_rejected");
    });
    await db().transaction((tx) => expireInvoice(tx, invoice.id));
    const after = await reload(invoice.id);
    expect([after.status, after.invoice.statusReason]).toEqual(["confirmed", "paid"]);
  });

  it("keeps an invoice processing while a payment is held, whatever else is taken back or credited", async () => {
    // A reorganisation removes the unconfirmed payment: the held one is still in flight.
    const invoice = await chosen("LTC");
    const due = invoice.invoice.senderAmount!;
    await payDenied(invoice.address!, due / 2n);
    await confirm(db(), "LTC");
    await pay(db(), invoice, due / 2n);
    const [held, seen] = await depositsOf(invoice.id);
    expect([held!.status, seen!.status]).toEqual(["held", "seen"]);
    expect(await db().transaction((tx) => unwindDeposit(tx, seen!.id))).toBe(true);
    expect((await reload(invoice.id)).status).toBe("processing");

    // The new coin's full payment is credited while the old coin's payment is held: no verdict yet.
    const ltc = await chosen("LTC");
    const btc = await choose(ltc.invoice.token, "BTC");
    await payDenied(ltc.address!, ltc.invoice.senderAmount! / 2n);
    await confirm(db(), "LTC");
    await pay(db(), btc, btc.invoice.senderAmount!);
    await confirm(db(), "BTC");
    const [oldHeld, credited] = await depositsOf(btc.id);
    expect([oldHeld!.status, credited!.status]).toEqual(["held", "credited"]);
    expect((await reload(btc.id)).status).toBe("processing");
    // Rejected, it leaves the BTC payment to decide: paid in full.
    await decide(oldHeld!.id, "reject");
    const done = await reload(btc.id);
    expect([done.status, done.invoice.statusReason]).toEqual(["confirmed", "paid"]);
  });
});
