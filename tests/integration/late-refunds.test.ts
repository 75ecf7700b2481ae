import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import { callbacks, deposits, emails, refundClaims, users } from "@/lib/db/schema";
import type { KassaError } from "@/lib/errors";
import { cancelInvoice } from "@/lib/invoices/cancel-invoice";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { isExceptionResolved, resolveInvoiceException } from "@/lib/invoices/resolve-invoice-exception";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { readBalance } from "@/lib/ledger/read-balance";
import { parseDecimal } from "@/lib/money";
import { claimRefund } from "@/lib/refunds/claim-refund";
import { issueRefund } from "@/lib/refunds/issue-refund";
import { previewRefund } from "@/lib/refunds/preview-refund";
import { readRefund } from "@/lib/refunds/read-refund";
import type { RefundTerms } from "@/lib/refunds/refund-terms";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { type TestClock, testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, handlers, pay, pricingWith, settings } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { refundPayoutsOf, refundStepsOf } from "../support/refunds";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const SPREAD = 5_000;
const FULL: RefundTerms = { amount: { kind: "full" }, rateBasis: "payment", feePaidBy: "merchant" };
const CALLBACK_URL = "https://shop.example/kassa-callbacks";

/**
 * Refunds of payments that reached an invoice after it closed (paid late, after a cancel, or again
 * once paid): the merchant was credited with them and owes them back in the coin they came in. And
 * "Mark resolved" while a refund is open: it cancels the offer, and refuses under a payout on its way.
 */
describe(`refunds of late payments on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let actor: AuditSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Late Shop");
    const [owner] = await database.db.select().from(users).where(eq(users.merchantId, merchantId));
    actor = { actor: { kind: "user", userId: owner!.id, email: owner!.email } };
    // The refunds convert from the EUR balance with a spread: more than the late credits alone.
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "EUR",
      amount: parseDecimal("100000"),
      isSandbox: true,
    });
  });
  afterAll(() => database.drop());

  /** A 100 EUR invoice in BTC left to expire, then paid `amount` in full: a late payment. */
  async function paidLate(clock: TestClock = testClock(), shop = merchantId) {
    const invoice = await createFixedInvoice(
      database.db,
      shop,
      "BTC",
      { callback_url: CALLBACK_URL },
      { ...settings, clock },
    );
    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    const amount = invoice.invoice.senderAmount!;
    await pay(database.db, invoice, amount, clock);
    await confirm(database.db, "BTC", clock);
    const settled = (await loadInvoiceById(database.db, invoice.id))!;
    expect([settled.status, settled.invoice.statusReason]).toEqual(["failed", "expired"]);
    return { invoice: settled, amount, clock };
  }

  /** What the invoice's late payments brought, read from the deposits as the chain recorded them. */
  const lateDeposits = async (invoiceId: number) =>
    (
      await database.db
        .select({ amount: deposits.amount })
        .from(deposits)
        .where(and(eq(deposits.transactionId, invoiceId), eq(deposits.isLate, true)))
    ).reduce((sum, row) => sum + row.amount, 0n);

  const issue = (invoiceId: number, clock: TestClock, terms: RefundTerms = FULL, shop = merchantId) =>
    issueRefund(database.db, {
      merchantId: shop,
      invoiceId,
      terms,
      actor,
      box: database.box,
      mail: { baseUrl: "https://kassa.example" },
      clock,
    });

  const claim = (token: string, clock: TestClock) =>
    claimRefund(database.db, {
      token,
      currency: "BTC",
      address: BTC_ADDRESS,
      pricing: pricingWith(SPREAD),
      clock,
    });

  const refundPayouts = (invoiceId: number) => refundPayoutsOf(database.db, invoiceId);
  const refundSteps = (invoiceId: number) => refundStepsOf(database.db, invoiceId);

  const mailOf = async (invoiceId: number, kind: string) =>
    (
      await database.db
        .select({ body: emails.body })
        .from(emails)
        .where(and(eq(emails.transactionId, invoiceId), eq(emails.kind, kind)))
    )[0]?.body;

  it("refunds a payment that arrived after the invoice expired: issued, e-mailed, claimed, paid out exactly", async () => {
    const { invoice, amount, clock } = await paidLate();
    expect(await lateDeposits(invoice.id)).toBe(amount);
    // The customer was told a link will come, not asked to reply with an address.
    const lateMail = await mailOf(invoice.id, "late_payment");
    expect(lateMail).toMatch(/will send you a link to claim it/);
    expect(lateMail).not.toMatch(/Reply to/);

    const preview = await previewRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: FULL,
      pricing: pricingWith(SPREAD),
      clock,
    });
    expect([preview.currency, preview.owed, preview.left, preview.amount]).toEqual([
      "BTC",
      amount,
      amount,
      amount,
    ]);
    expect(preview.options[0]).toMatchObject({ currency: "BTC", receives: amount, isUnderMinimum: false });
    // A late payment has no excess to refund apart.
    expect(
      (await fieldsOf(issue(invoice.id, clock, { ...FULL, amount: { kind: "excess" } }))).amount,
    ).toMatch(/arrived after it closed/);

    const { refund, token } = await issue(invoice.id, clock);
    expect([refund.status, refund.owedAmount, refund.payCurrency]).toEqual(["offered", amount, "BTC"]);
    expect(await mailOf(invoice.id, "refund_ready")).toContain("https://kassa.example/refund/");

    const claimed = await claim(token, clock);
    expect(claimed.status).toBe("claimed");
    expect(claimed.payout).toMatchObject({ amount, currency: "BTC" });
    // Recorded against the invoice: one payout, of exactly what the late payment brought.
    expect(await refundPayouts(invoice.id)).toEqual([
      { id: expect.any(Number), sent: amount, target: "BTC" },
    ]);
    expect(await refundSteps(invoice.id)).toEqual(["refund_issued", "refund_claimed"]);
    expect((await fieldsOf(issue(invoice.id, clock))).amount).toMatch(/already refunded in full/);
    await ledgerInvariants(database.db);
  });

  it("says before offering when the balance does not cover the claim's payout, and the claim then debits what it said", async () => {
    // A shop whose only money is the late payment's credit, less its deposit fee: less than sending it all back.
    const shop = await createTestMerchant(database, "Thin Shop");
    const { invoice, amount, clock } = await paidLate(testClock(), shop);
    const eur = () => readBalance(database.db, { merchantId: shop, currency: "EUR" });

    const short = await previewRefund(database.db, {
      merchantId: shop,
      invoiceId: invoice.id,
      terms: FULL,
      pricing: pricingWith(SPREAD),
      clock,
    });
    const available = await eur();
    expect(available).toBeGreaterThan(0n);
    expect(short.balance).toEqual({ currency: "EUR", available });
    const debit = short.options[0]!.debit!;
    expect(debit).toBeGreaterThan(available);
    expect(short.options[0]).toMatchObject({ currency: "BTC", receives: amount, isInsufficient: true });

    // Offered anyway, the customer's claim is refused in words for them, and nothing moves.
    const { token } = await issue(invoice.id, clock, FULL, shop);
    await expect(claim(token, clock)).rejects.toThrow("Thin Shop cannot send this refund right now");
    expect(await eur()).toBe(available);

    // Topped up by exactly the shortfall the preview named, the claim goes through and takes all of it.
    await creditSandboxBalance(database.db, {
      merchantId: shop,
      currency: "EUR",
      amount: debit - available,
      isSandbox: true,
    });
    expect((await claim(token, clock)).payout).toMatchObject({ amount, currency: "BTC" });
    expect(await eur()).toBe(0n);
    await ledgerInvariants(database.db);
  });

  it("owes a payment that came after a cancel, or again after the invoice was paid, and no more", async () => {
    const cancelled = await createFixedInvoice(database.db, merchantId, "BTC");
    await cancelInvoice(database.db, { merchantId, foreignId: cancelled.foreignId });
    const paid = await createFixedInvoice(database.db, merchantId, "BTC");
    await pay(database.db, paid, paid.invoice.senderAmount!);
    await confirm(database.db, "BTC");
    const again = 40_000n;
    await pay(database.db, cancelled, 30_000n);
    await pay(database.db, paid, again);
    await confirm(database.db, "BTC");
    const clock = testClock();
    for (const [invoice, owed] of [
      [cancelled, 30_000n],
      [paid, again],
    ] as const) {
      expect(await lateDeposits(invoice.id)).toBe(owed);
      const preview = await previewRefund(database.db, {
        merchantId,
        invoiceId: invoice.id,
        terms: FULL,
        pricing: pricingWith(SPREAD),
      });
      expect([preview.owed, preview.amount]).toEqual([owed, owed]);
      // A plain refund payout counts the same rule: one unit over what is owed is refused.
      const over = await fieldsOf(
        createWithdrawal(database.db, {
          merchantId,
          kind: "withdrawal_exchange",
          source: "EUR",
          target: "BTC",
          amountTo: owed + 1n,
          address: BTC_ADDRESS,
          foreignId: `late-over-${invoice.id}`,
          endUserReference: `refund-${invoice.id}`,
          sender: { sender_type: "natural", sender_data: invoice.invoice.senderData } as never,
          receiver: { receiver_type: "self" },
          pricing: pricingWith(SPREAD),
          refundOf: invoice.id,
          clock,
        }),
      );
      expect(Object.values(over).join(" ")).toMatch(/left to refund/);
    }
  });

  it("sends once when two claims of a late payment's refund arrive together", async () => {
    const { invoice, amount, clock } = await paidLate();
    const { token } = await issue(invoice.id, clock);
    const results = await Promise.allSettled([claim(token, clock), claim(token, clock)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as KassaError).status).toBe(409);
    expect(await refundPayouts(invoice.id)).toEqual([
      { id: expect.any(Number), sent: amount, target: "BTC" },
    ]);
  });

  it("never promises more than a late payment brought when two refunds are issued at once", async () => {
    const { invoice, amount, clock } = await paidLate();
    // Each asks for two thirds of what is owed: together they would exceed it.
    const part: RefundTerms = { ...FULL, amount: { kind: "custom", units: (amount * 2n) / 3n } };
    const results = await Promise.allSettled([
      issue(invoice.id, clock, part),
      issue(invoice.id, clock, part),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as KassaError).fields?.amount).toMatch(/at most/);
    const offered = await database.db
      .select({ owed: refundClaims.owedAmount })
      .from(refundClaims)
      .where(eq(refundClaims.invoiceId, invoice.id));
    expect(offered.reduce((sum, row) => sum + row.owed, 0n)).toBeLessThanOrEqual(amount);
  });

  it("cancels an open refund offer when the invoice is resolved without a refund, with its callback", async () => {
    const { invoice, clock } = await paidLate();
    const { refund, token } = await issue(invoice.id, clock);
    await resolveInvoiceException(database.db, {
      merchantId,
      invoiceId: invoice.id,
      reason: "customer_declined",
      note: "",
      audit: actor,
      clock,
    });
    expect(await isExceptionResolved(database.db, invoice.id)).toBe(true);
    expect((await readRefund(database.db, { merchantId, id: refund.id }, clock))!.status).toBe("cancelled");
    expect(await refundSteps(invoice.id)).toEqual(["refund_issued", "refund_cancelled"]);
    const sent = await database.db
      .select({ event: callbacks.event })
      .from(callbacks)
      .where(eq(callbacks.transactionId, invoice.id))
      .orderBy(asc(callbacks.id));
    expect(sent.map((c) => c.event).filter((e) => e.startsWith("refund."))).toEqual([
      "refund.offered",
      "refund.cancelled",
    ]);
    // The link no longer pays out.
    await expect(claim(token, clock)).rejects.toMatchObject({ status: 409 });
    expect(await refundPayouts(invoice.id)).toEqual([]);
  });

  it("refuses to resolve while a claimed refund's payout is on its way, and keeps it claimed", async () => {
    const { invoice, clock } = await paidLate();
    const { refund, token } = await issue(invoice.id, clock);
    await claim(token, clock);
    const refused = await resolveInvoiceException(database.db, {
      merchantId,
      invoiceId: invoice.id,
      reason: "paid_outside",
      note: "",
      audit: actor,
      clock,
    }).catch((error: KassaError) => error);
    expect(refused).toMatchObject({ status: 409, message: expect.stringMatching(/payout is on its way/) });
    expect(await isExceptionResolved(database.db, invoice.id)).toBe(false);
    expect((await readRefund(database.db, { merchantId, id: refund.id }, clock))!.status).toBe("claimed");
  });
});
