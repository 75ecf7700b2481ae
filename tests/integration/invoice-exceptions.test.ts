import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { getCurrency } from "@/lib/currencies/registry";
import { auditEntries, emails, users } from "@/lib/db/schema";
import type { KassaError } from "@/lib/errors";
import { jobHandlers } from "@/lib/host/job-handlers";
import { cancelInvoice } from "@/lib/invoices/cancel-invoice";
import { type InvoiceRecord, loadInvoiceById } from "@/lib/invoices/load-invoice";
import { isExceptionResolved, resolveInvoiceException } from "@/lib/invoices/resolve-invoice-exception";
import { runDueJobs } from "@/lib/jobs/runner";
import { listBalances } from "@/lib/ledger/list-balances";
import { queueEmail } from "@/lib/mail/queue-email";
import { readSupportContact } from "@/lib/merchants/read-support-contact";
import { setSupportEmail } from "@/lib/merchants/set-support-email";
import { setUnderpaymentTolerance } from "@/lib/merchants/set-underpayment-tolerance";
import { describeInvoice } from "@/lib/transactions/describe-invoice";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pay, settings } from "../support/invoices";
import { mailText } from "../support/mail-text";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { startSmtpServer } from "../support/smtp";

/**
 * The exceptions of an invoice a merchant can close: a short payment within their underpayment
 * tolerance counts as paid, an invoice that owes its customer money can be resolved without a
 * refund, and the customer's e-mails answer to the merchant's support address.
 */
describe(`invoice exceptions on ${testDriver}`, () => {
  let database: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let handlers: ReturnType<typeof jobHandlers>;

  const sourceOf = async (merchantId: number): Promise<AuditSource> => {
    const [user] = await database.db.select().from(users).where(eq(users.merchantId, merchantId));
    return { actor: { kind: "user", userId: user!.id, email: user!.email }, address: "203.0.113.9" };
  };
  const eurBalance = async (merchantId: number) =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === "EUR")?.balance ?? 0n;
  /** Confirms the sandbox payments and runs the jobs that follow: e-mails go over real SMTP. */
  const confirm = async (currency: string, clock?: ReturnType<typeof testClock>) => {
    await mineSandboxBlocks(database.db, { currency, count: getCurrency(currency).confirmations });
    await runDueJobs(database.db, handlers, { clock });
  };
  const reload = async (id: number) => (await loadInvoiceById(database.db, id))!;
  // Independent arithmetic in 10^-8 units (EUR's precision): what `paid` brings at the locked rate,
  // rounded down, and the deposit fee on it, rounded up.
  const grossAtLock = (invoice: InvoiceRecord, paid: bigint) =>
    (paid * invoice.invoice.rateNumerator!) / invoice.invoice.rateDenominator!;
  const feeOn = (gross: bigint, currency: string) => {
    const ppm = BigInt(getCurrency(currency).depositFeePpm);
    return (gross * ppm + 999_999n) / 1_000_000n;
  };
  /** `due` less `perTenThousand` ten-thousandths of it, rounded so the payment is never less short. */
  const short = (due: bigint, perTenThousand: bigint) => due - (due * perTenThousand + 9_999n) / 10_000n;

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpServer();
    handlers = jobHandlers({
      pricing: settings.pricing,
      mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: "Kassa <no-reply@kassa.test>" },
    });
  });
  afterAll(async () => {
    await smtp.close();
    await database.drop();
  });

  describe("underpayment tolerance", () => {
    it("pays an invoice 0.5 % short under a 1 % tolerance, crediting what arrived, and says so", async () => {
      const merchantId = await createTestMerchant(database, "Tolerant");
      expect(
        await setUnderpaymentTolerance(database.db, {
          merchantId,
          percent: "1.00",
          audit: await sourceOf(merchantId),
        }),
      ).toBe("1");
      const invoice = await createFixedInvoice(database.db, merchantId, "BTC");
      const due = invoice.invoice.senderAmount!;
      const paid = short(due, 50n);
      const before = await eurBalance(merchantId);
      await pay(database.db, invoice, paid);
      await confirm("BTC");
      const after = await reload(invoice.id);
      expect([after.status, after.invoice.statusReason]).toEqual(["confirmed", "paid_within_tolerance"]);
      // The ledger credits what arrived, not what was asked.
      const gross = grossAtLock(invoice, paid);
      expect(gross < 100_00000000n).toBe(true);
      expect(await eurBalance(merchantId)).toBe(before + gross - feeOn(gross, "BTC"));
      const info = await describeInvoice(database.db, invoice.id);
      expect(info.status).toBe("confirmed");
      expect(info.additional_details).toMatchObject({ status_reason: "paid_within_tolerance" });
    });

    it("does not pay an invoice 1.5 % short under a 1 % tolerance: it waits for the rest, then fails underpaid", async () => {
      const merchantId = await createTestMerchant(database, "Tolerant2");
      await setUnderpaymentTolerance(database.db, {
        merchantId,
        percent: "1",
        audit: await sourceOf(merchantId),
      });
      const clock = testClock();
      const invoice = await createFixedInvoice(database.db, merchantId, "BTC", {}, { ...settings, clock });
      await pay(database.db, invoice, short(invoice.invoice.senderAmount!, 150n), clock);
      await confirm("BTC", clock);
      const waiting = await reload(invoice.id);
      expect([waiting.status, waiting.invoice.statusReason]).toEqual(["pending", "awaiting_remainder"]);
      clock.advance(settings.timerSeconds + 1);
      await runDueJobs(database.db, handlers, { clock });
      const failed = await reload(invoice.id);
      expect([failed.status, failed.invoice.statusReason]).toEqual(["failed", "underpaid"]);
    });

    it("keeps today's judgement at the default 0: a payment 0.5 % short is short", async () => {
      const merchantId = await createTestMerchant(database, "Strict");
      const invoice = await createFixedInvoice(database.db, merchantId, "BTC");
      await pay(database.db, invoice, short(invoice.invoice.senderAmount!, 50n));
      await confirm("BTC");
      const after = await reload(invoice.id);
      expect([after.status, after.invoice.statusReason]).toEqual(["pending", "awaiting_remainder"]);
    });

    it("refuses a tolerance over 10 %, with more than two decimals, or not a number, and audits a change", async () => {
      const merchantId = await createTestMerchant(database, "Picky");
      const audit = await sourceOf(merchantId);
      for (const percent of ["10.01", "1.255", "-1", "abc", ""])
        expect(
          await fieldsOf(setUnderpaymentTolerance(database.db, { merchantId, percent, audit })),
        ).toHaveProperty("tolerance_percent");
      expect(await setUnderpaymentTolerance(database.db, { merchantId, percent: "10", audit })).toBe("10");
      expect(await setUnderpaymentTolerance(database.db, { merchantId, percent: "0.05", audit })).toBe(
        "0.05",
      );
      const trail = await database.db
        .select()
        .from(auditEntries)
        .where(
          and(
            eq(auditEntries.merchantId, merchantId),
            eq(auditEntries.action, "underpayment_tolerance_changed"),
          ),
        );
      expect(trail.map((e) => e.detail).sort()).toEqual([
        "underpayment tolerance 0.05 %",
        "underpayment tolerance 10 %",
      ]);
    });
  });

  describe("mark resolved", () => {
    let merchantId: number;
    let audit: AuditSource;
    beforeAll(async () => {
      merchantId = await createTestMerchant(database, "Resolver");
      audit = await sourceOf(merchantId);
    });
    const overpaidInvoice = async () => {
      const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
      await pay(database.db, invoice, invoice.invoice.senderAmount! * 2n);
      await confirm("LTC");
      expect((await reload(invoice.id)).invoice.statusReason).toBe("overpaid");
      return invoice;
    };
    const errorOf = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (e: unknown) => e as KassaError,
      );

    it("closes an overpaid invoice without a refund, once, audited and shown in transactions/info", async () => {
      const invoice = await overpaidInvoice();
      expect((await describeInvoice(database.db, invoice.id)).additional_details).toMatchObject({
        resolution: null,
      });
      const balance = await eurBalance(merchantId);
      const resolution = await resolveInvoiceException(database.db, {
        merchantId,
        invoiceId: invoice.id,
        reason: "customer_declined",
        note: "  asked to keep it as credit ",
        audit,
      });
      expect(resolution).toMatchObject({ reason: "customer_declined", note: "asked to keep it as credit" });
      expect(resolution.resolvedBy).toBe("resolver@example.com");
      expect(await isExceptionResolved(database.db, invoice.id)).toBe(true);
      expect((await describeInvoice(database.db, invoice.id)).additional_details).toMatchObject({
        invoice_status: "confirmed",
        resolution: {
          reason: "customer_declined",
          note: "asked to keep it as credit",
          resolved_at: resolution.resolvedAt.toISOString(),
        },
      });
      // No money moves.
      expect(await eurBalance(merchantId)).toBe(balance);
      const trail = await database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.merchantId, merchantId), eq(auditEntries.action, "invoice_resolved")));
      expect(trail).toHaveLength(1);
      expect(trail[0]).toMatchObject({ actor: "resolver@example.com", address: "203.0.113.9" });
      expect(trail[0]!.detail).toContain(`Invoice ${invoice.id}`);

      // One-way: a second resolve is refused and changes nothing.
      const again = await errorOf(
        resolveInvoiceException(database.db, {
          merchantId,
          invoiceId: invoice.id,
          reason: "too_small",
          note: "",
          audit,
        }),
      );
      expect([again?.code, again?.status]).toEqual(["conflict", 409]);
      expect((await describeInvoice(database.db, invoice.id)).additional_details).toMatchObject({
        resolution: { reason: "customer_declined" },
      });
    });

    it("resolves once when two members resolve at the same moment", async () => {
      const invoice = await overpaidInvoice();
      const results = await Promise.allSettled(
        (["paid_outside", "too_small"] as const).map((reason) =>
          resolveInvoiceException(database.db, {
            merchantId,
            invoiceId: invoice.id,
            reason,
            note: "",
            audit,
          }),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect((refused.reason as KassaError).code).toBe("conflict");
    });

    it("resolves a payment that arrived after the invoice expired, and one after it was cancelled", async () => {
      const clock = testClock();
      const expired = await createFixedInvoice(database.db, merchantId, "LTC", {}, { ...settings, clock });
      clock.advance(settings.timerSeconds + 1);
      await runDueJobs(database.db, handlers, { clock });
      expect((await reload(expired.id)).invoice.statusReason).toBe("expired");
      const cancelled = await createFixedInvoice(database.db, merchantId, "LTC");
      await cancelInvoice(database.db, { merchantId, foreignId: cancelled.foreignId });
      for (const invoice of [expired, cancelled]) {
        // Nothing owed before the money arrives.
        const early = await errorOf(
          resolveInvoiceException(database.db, {
            merchantId,
            invoiceId: invoice.id,
            reason: "too_small",
            note: "",
            audit,
          }),
        );
        expect(early?.fields).toMatchObject({ code: "nothing_to_resolve" });
        await pay(database.db, invoice, invoice.invoice.senderAmount!, clock);
      }
      await confirm("LTC", clock);
      for (const invoice of [expired, cancelled])
        await resolveInvoiceException(database.db, {
          merchantId,
          invoiceId: invoice.id,
          reason: "paid_outside",
          note: "",
          audit,
        });
      expect(await isExceptionResolved(database.db, cancelled.id)).toBe(true);
    });

    it("refuses an invoice that owes nothing, 'other' without a note, and another merchant's invoice", async () => {
      const exact = await createFixedInvoice(database.db, merchantId, "LTC");
      await pay(database.db, exact, exact.invoice.senderAmount!);
      await confirm("LTC");
      const nothing = await errorOf(
        resolveInvoiceException(database.db, {
          merchantId,
          invoiceId: exact.id,
          reason: "too_small",
          note: "",
          audit,
        }),
      );
      expect([nothing?.status, nothing?.fields?.code]).toEqual([400, "nothing_to_resolve"]);
      expect(await isExceptionResolved(database.db, exact.id)).toBe(false);

      const owing = await overpaidInvoice();
      const noNote = await errorOf(
        resolveInvoiceException(database.db, {
          merchantId,
          invoiceId: owing.id,
          reason: "other",
          note: "  ",
          audit,
        }),
      );
      expect(noNote?.fields).toHaveProperty("note");

      const stranger = await createTestMerchant(database, "Stranger");
      const foreign = await errorOf(
        resolveInvoiceException(database.db, {
          merchantId: stranger,
          invoiceId: owing.id,
          reason: "too_small",
          note: "",
          audit: await sourceOf(stranger),
        }),
      );
      expect(foreign?.status).toBe(404);
      expect(await isExceptionResolved(database.db, owing.id)).toBe(false);
    });
  });

  describe("mail that can be answered", () => {
    const mailsTo = async (merchantId: number, invoiceId: number) => {
      const rows = await database.db.select().from(emails).where(eq(emails.transactionId, invoiceId));
      expect(rows.every((r) => r.merchantId === merchantId && r.status === "sent")).toBe(true);
      return smtp.received.filter((m) => rows.some((r) => emailIdOf(m.data) === r.id));
    };
    const emailIdOf = (data: string) => Number(headerOf(data, "X-Kassa-Email-Id"));
    const headerOf = (data: string, name: string) =>
      new RegExp(`^${name}: (.*)$`, "im").exec(data.split(/\r?\n\r?\n/)[0]!)?.[1]?.trim();

    it("sets the support address as Reply-To of the customer's e-mails and names it in them", async () => {
      const merchantId = await createTestMerchant(database, "Answering");
      const audit = await sourceOf(merchantId);
      expect(
        await setSupportEmail(database.db, { merchantId, email: " help@answering.example ", audit }),
      ).toBe("help@answering.example");
      expect(await readSupportContact(database.db, merchantId)).toBe("help@answering.example");
      const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
      await pay(database.db, invoice, invoice.invoice.senderAmount! * 2n);
      await confirm("LTC");
      const received = await mailsTo(merchantId, invoice.id);
      // The receipt and the overpayment's refund message.
      expect(received).toHaveLength(2);
      for (const mail of received) {
        expect(mail.to).toBe("buyer@example.com");
        expect(headerOf(mail.data, "Reply-To")).toBe("help@answering.example");
        expect(mailText(mail)).toContain("write to help@answering.example");
      }

      // Kassa's own mail to the merchant's team (no transaction) answers to nobody at the merchant's support.
      const teamMail = await queueEmail(database.db, {
        merchantId,
        kind: "invitation",
        recipient: "new.member@answering.example",
        subject: "Join Answering on Kassa",
        body: "You are invited.",
      });
      await runDueJobs(database.db, handlers);
      const invitation = smtp.received.find((m) => emailIdOf(m.data) === teamMail);
      expect(invitation).toBeDefined();
      expect(headerOf(invitation!.data, "Reply-To")).toBeUndefined();
    });

    it("without a support address sends no Reply-To and tells the customer replies are not read", async () => {
      const merchantId = await createTestMerchant(database, "Silent");
      const audit = await sourceOf(merchantId);
      await setSupportEmail(database.db, { merchantId, email: "help@silent.example", audit });
      expect(await setSupportEmail(database.db, { merchantId, email: "", audit })).toBeNull();
      expect(
        await fieldsOf(setSupportEmail(database.db, { merchantId, email: "not an address", audit })),
      ).toHaveProperty("support_email");
      const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
      await pay(database.db, invoice, invoice.invoice.senderAmount!);
      await confirm("LTC");
      const [receipt] = await mailsTo(merchantId, invoice.id);
      expect(receipt).toBeDefined();
      expect(headerOf(receipt!.data, "Reply-To")).toBeUndefined();
      expect(mailText(receipt!)).toContain("Replies to this message are not read");
    });
  });
});
