import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import { auditEntries, emails, refundClaims, users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { parseDecimal } from "@/lib/money";
import { cancelRefund } from "@/lib/refunds/cancel-refund";
import { claimRefund } from "@/lib/refunds/claim-refund";
import { issueRefund } from "@/lib/refunds/issue-refund";
import { openRefundLinks } from "@/lib/refunds/open-refund-links";
import { previewRefund } from "@/lib/refunds/preview-refund";
import { readRefund } from "@/lib/refunds/read-refund";
import type { RefundTerms } from "@/lib/refunds/refund-terms";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, handlers, pay, pricingWith } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { refundPayoutsOf, refundStepsOf } from "../support/refunds";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const LTC_ADDRESS = "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh";
// The registry's figures, written out: what the tests check against.
const BTC_MINIMUM = 10_000n; // 0.0001 BTC
const BTC_FEE = 2_000n; // 0.00002 BTC
const BTC_USD = 65_000n;
const LTC_USD = 80n;
const SPREAD = 5_000;
const FULL: RefundTerms = { amount: { kind: "full" }, rateBasis: "payment", feePaidBy: "merchant" };

/**
 * Refunds the customer claims (lib/refunds): issued on the merchant's terms under the invoice's
 * lock, claimed once through the withdrawal engine whatever races it, refused once lapsed.
 */
describe(`refund claims on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let actor: AuditSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Claim Shop");
    actor = await ownerOf(merchantId);
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "EUR",
      amount: parseDecimal("100000"),
      isSandbox: true,
    });
  });
  afterAll(() => database.drop());

  async function ownerOf(merchant: number): Promise<AuditSource> {
    const [owner] = await database.db.select().from(users).where(eq(users.merchantId, merchant));
    return { actor: { kind: "user", userId: owner!.id, email: owner!.email } };
  }

  /** A 100 EUR invoice paid in BTC with `extra` units more than due, confirmed: it owes `extra` back. */
  async function overpaid(extra: bigint, merchant = merchantId) {
    const invoice = await createFixedInvoice(database.db, merchant, "BTC", { timer: false });
    await pay(database.db, invoice, invoice.invoice.senderAmount! + extra);
    await confirm(database.db, "BTC");
    const settled = (await loadInvoiceById(database.db, invoice.id))!;
    expect([settled.status, settled.invoice.statusReason]).toEqual(["confirmed", "overpaid"]);
    return settled;
  }

  const claim = (
    token: string,
    fields: Partial<{ currency: string; address: string; tag: string }> = {},
    clock = testClock(),
  ) =>
    claimRefund(database.db, {
      token,
      currency: "BTC",
      address: BTC_ADDRESS,
      pricing: pricingWith(SPREAD),
      clock,
      ...fields,
    });

  const refundPayouts = (invoiceId: number) => refundPayoutsOf(database.db, invoiceId);
  const timeline = (invoiceId: number) => refundStepsOf(database.db, invoiceId);

  it("issues a refund, keeps only the token's hash and seals the e-mail, and sends the claim through the withdrawal engine", async () => {
    const extra = 20_000n;
    const invoice = await overpaid(extra);
    const { refund, token } = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: FULL,
      actor,
      box: database.box,
      mail: { baseUrl: "https://kassa.example" },
    });
    expect([refund.status, refund.owedAmount, refund.payCurrency, refund.currencies]).toEqual([
      "offered",
      extra,
      "BTC",
      ["BTC"],
    ]);
    const [row] = await database.db.select().from(refundClaims).where(eq(refundClaims.id, refund.id));
    expect(
      JSON.stringify(row, (_, value) => (typeof value === "bigint" ? String(value) : value)),
    ).not.toContain(token);
    const [mail] = await database.db
      .select()
      .from(emails)
      .where(and(eq(emails.transactionId, invoice.id), eq(emails.kind, "refund_ready")));
    expect(mail!.body).not.toContain(token);
    expect(mail!.bodySealed).not.toContain(token);
    expect(mail!.body).toContain("https://kassa.example/refund/");

    // The checkout's link is the same token, re-derived under the master key.
    expect(await openRefundLinks(database.db, { invoiceId: invoice.id, box: database.box })).toEqual([
      { id: refund.id, path: `/refund/${token}` },
    ]);

    const claimed = await claim(token);
    expect(claimed.status).toBe("claimed");
    expect(await openRefundLinks(database.db, { invoiceId: invoice.id, box: database.box })).toEqual([]);
    expect(claimed.claim).toEqual({ currency: "BTC", address: BTC_ADDRESS, tag: null });
    expect(claimed.payout).toMatchObject({ amount: extra, currency: "BTC", status: "processing" });
    expect(await refundPayouts(invoice.id)).toEqual([{ id: claimed.payout!.id, sent: extra, target: "BTC" }]);
    expect(await timeline(invoice.id)).toEqual(["refund_issued", "refund_claimed"]);
    const audit = await database.db
      .select({ action: auditEntries.action })
      .from(auditEntries)
      .where(and(eq(auditEntries.merchantId, merchantId), eq(auditEntries.action, "refund_issued")));
    expect(audit.length).toBeGreaterThan(0);
    // The link is spent; the invoice owes nothing more.
    await expect(claim(token)).rejects.toMatchObject({ status: 409 });
    expect(
      (
        await fieldsOf(
          issueRefund(database.db, {
            merchantId,
            invoiceId: invoice.id,
            terms: FULL,
            actor,
            box: database.box,
          }),
        )
      ).amount,
    ).toMatch(/already refunded in full/);
    await ledgerInvariants(database.db);
  });

  it("sends once when two claims arrive together", async () => {
    const invoice = await overpaid(30_000n);
    const { token } = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: FULL,
      actor,
      box: database.box,
    });
    const results = await Promise.allSettled([claim(token), claim(token)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(KassaError);
    expect(refused.reason.status).toBe(409);
    expect(refused.reason.message).toBe("This refund has already been claimed: its payout is on its way.");
    expect(await refundPayouts(invoice.id)).toHaveLength(1);
    expect(await timeline(invoice.id)).toEqual(["refund_issued", "refund_claimed"]);
  });

  it("lets exactly one of a claim and the merchant's cancel win", async () => {
    for (let round = 0; round < 3; round++) {
      const invoice = await overpaid(25_000n);
      const { refund, token } = await issueRefund(database.db, {
        merchantId,
        invoiceId: invoice.id,
        terms: FULL,
        actor,
        box: database.box,
      });
      const [claimed, cancelled] = await Promise.allSettled([
        claim(token),
        cancelRefund(database.db, { merchantId, refundId: refund.id, actor }),
      ]);
      const after = (await readRefund(database.db, { merchantId, id: refund.id }))!;
      const payouts = await refundPayouts(invoice.id);
      if (claimed.status === "fulfilled") {
        expect(cancelled.status).toBe("rejected");
        expect((cancelled as PromiseRejectedResult).reason.status).toBe(409);
        expect([after.status, payouts.length]).toEqual(["claimed", 1]);
        expect(await timeline(invoice.id)).toEqual(["refund_issued", "refund_claimed"]);
      } else {
        expect(cancelled.status).toBe("fulfilled");
        expect(claimed.reason.status).toBe(409);
        expect(claimed.reason.message).toMatch(/cancelled this refund/);
        expect([after.status, payouts.length]).toEqual(["cancelled", 0]);
        expect(await timeline(invoice.id)).toEqual(["refund_issued", "refund_cancelled"]);
        // What it held is free again: a new refund of the whole excess can be issued.
        const again = await issueRefund(database.db, {
          merchantId,
          invoiceId: invoice.id,
          terms: FULL,
          actor,
          box: database.box,
        });
        expect(again.refund.owedAmount).toBe(25_000n);
      }
    }
  });

  it("refuses a claim once the link has lapsed, and marks it expired on the timeline", async () => {
    const clock = testClock();
    const invoice = await overpaid(20_000n);
    const { refund, token } = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { ...FULL, expiresInSeconds: 3600 },
      actor,
      box: database.box,
      clock,
    });
    clock.advance(3601);
    const error = await claim(token, {}, clock).then(
      () => undefined,
      (e: unknown) => e as KassaError,
    );
    expect(error).toBeInstanceOf(KassaError);
    expect(error!.status).toBe(409);
    expect(error!.message).toBe(
      `This refund link expired on ${refund.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC. Ask Claim Shop for a new one.`,
    );
    expect(await refundPayouts(invoice.id)).toEqual([]);
    expect((await readRefund(database.db, { token }, clock))!.status).toBe("expired");
    expect(await timeline(invoice.id)).toEqual(["refund_issued", "refund_expired"]);
    // The expiry job finds nothing more to do.
    await runDueJobs(database.db, handlers, { clock });
    expect(await timeline(invoice.id)).toEqual(["refund_issued", "refund_expired"]);
    await expect(
      claimRefund(database.db, {
        token: "not-a-token",
        currency: "BTC",
        address: BTC_ADDRESS,
        pricing: pricingWith(SPREAD),
      }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("expires an unclaimed refund by its job", async () => {
    const clock = testClock();
    const invoice = await overpaid(20_000n);
    const { refund } = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { ...FULL, expiresInSeconds: 3600 },
      actor,
      box: database.box,
      clock,
    });
    clock.advance(3601);
    await runDueJobs(database.db, handlers, { clock });
    const [row] = await database.db.select().from(refundClaims).where(eq(refundClaims.id, refund.id));
    expect(row!.status).toBe("expired");
    expect(await timeline(invoice.id)).toEqual(["refund_issued", "refund_expired"]);
  });

  it("puts a claimed refund over the merchant's limit to approval, like any payout", async () => {
    const limited = await createTestMerchant(database, "Limited Shop");
    await creditSandboxBalance(database.db, {
      merchantId: limited,
      currency: "EUR",
      amount: parseDecimal("1000"),
      isSandbox: true,
    });
    const invoice = await overpaid(40_000n, limited);
    // 0.0004 BTC is worth about 24 EUR: over a 5 EUR limit per withdrawal.
    await setWithdrawalLimits(database.db, { merchantId: limited, currency: "EUR", perWithdrawal: "5" });
    const { token } = await issueRefund(database.db, {
      merchantId: limited,
      invoiceId: invoice.id,
      terms: FULL,
      actor: await ownerOf(limited),
      box: database.box,
    });
    const claimed = await claim(token);
    expect(claimed.status).toBe("claimed");
    expect(claimed.payout).toMatchObject({ status: "pending", amount: 40_000n, currency: "BTC" });
  });

  it("holds what an open refund settles against a plain refund payout of the same invoice", async () => {
    const invoice = await overpaid(30_000n);
    await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { ...FULL, amount: { kind: "custom", units: 20_000n } },
      actor,
      box: database.box,
    });
    const plain = (amountTo: bigint) =>
      createWithdrawal(database.db, {
        merchantId,
        kind: "withdrawal_exchange",
        source: "EUR",
        target: "BTC",
        amountTo,
        address: BTC_ADDRESS,
        foreignId: `plain-${invoice.id}-${amountTo}`,
        endUserReference: `plain-${invoice.id}`,
        sender: {
          sender_type: "legal",
          sender_data: { legal_name: "Claim Shop", country_of_registration: "DEU" },
        },
        receiver: { receiver_type: "self" },
        pricing: pricingWith(SPREAD),
        refundOf: invoice.id,
      });
    expect((await fieldsOf(plain(10_001n))).amount_to).toBe(
      `Invoice ${invoice.id} has 0.0001 BTC left to refund; this payout would send 0.00010001 BTC.`,
    );
    await plain(10_000n);
    expect(
      (
        await fieldsOf(
          issueRefund(database.db, {
            merchantId,
            invoiceId: invoice.id,
            terms: FULL,
            actor,
            box: database.box,
          }),
        )
      ).amount,
    ).toMatch(/already refunded in full/);
  });

  it("prices a refund in another coin at today's rate, and the claim sends that", async () => {
    const extra = 30_000n;
    const invoice = await overpaid(extra);
    const terms: RefundTerms = { ...FULL, rateBasis: "now", currencies: ["LTC"] };
    const preview = await previewRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms,
      pricing: pricingWith(SPREAD),
    });
    // 0.0003 BTC at 65000 USD is 19.5 USD, at 80 USD per LTC 0.24375 LTC (mid rate, rounded down).
    const ltc = (extra * BTC_USD) / LTC_USD;
    expect(preview.options.map((o) => [o.currency, o.receives, o.isUnderMinimum])).toEqual([
      ["BTC", extra, false],
      ["LTC", ltc, false],
    ]);
    const { token } = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms,
      actor,
      box: database.box,
    });
    const wrongNetwork = await fieldsOf(claim(token, { currency: "LTC", address: BTC_ADDRESS }));
    expect(Object.keys(wrongNetwork)).toEqual(["address"]);
    expect((await fieldsOf(claim(token, { currency: "ETH" }))).currency).toBe("Choose one of BTC, LTC.");
    const claimed = await claim(token, { currency: "LTC", address: LTC_ADDRESS });
    expect(claimed.payout).toMatchObject({ amount: ltc, currency: "LTC" });
    expect(await refundPayouts(invoice.id)).toEqual([{ id: claimed.payout!.id, sent: ltc, target: "LTC" }]);
    await ledgerInvariants(database.db);
  });

  it("says when a refund falls under the network's minimum, with the alternatives, and refuses to issue it", async () => {
    const extra = 5_000n; // 0.00005 BTC, under the 0.0001 BTC minimum
    const invoice = await overpaid(extra);
    const preview = await previewRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: FULL,
      pricing: pricingWith(SPREAD),
    });
    expect(preview.isUnderMinimum).toBe(true);
    expect(preview.options[0]).toMatchObject({
      currency: "BTC",
      receives: extra,
      minimum: BTC_MINIMUM,
      isUnderMinimum: true,
    });
    expect(preview.alternatives!.largerAmount).toBe(BTC_MINIMUM);
    // 0.00005 BTC is 3.25 USD, about 0.04 LTC: over LTC's 0.02 minimum.
    expect(preview.alternatives!.otherCurrencies).toContain("LTC");
    expect(
      (
        await fieldsOf(
          issueRefund(database.db, {
            merchantId,
            invoiceId: invoice.id,
            terms: FULL,
            actor,
            box: database.box,
          }),
        )
      ).amount,
    ).toBe(
      "A refund of 0.00005 BTC is under the network's minimum of 0.0001 BTC: refund a larger amount, allow another coin, or close the invoice without a refund.",
    );
    // The fee taken from the refund needs the minimum plus the fee.
    const taken = await previewRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { ...FULL, feePaidBy: "customer" },
      pricing: pricingWith(SPREAD),
    });
    expect(taken.alternatives!.largerAmount).toBe(BTC_MINIMUM + BTC_FEE);
    // The larger amount is offered; one unit more than it is refused.
    expect(
      (
        await fieldsOf(
          issueRefund(database.db, {
            merchantId,
            invoiceId: invoice.id,
            terms: { ...FULL, amount: { kind: "custom", units: BTC_MINIMUM + 1n } },
            actor,
            box: database.box,
          }),
        )
      ).amount,
    ).toBe(`A refund of invoice ${invoice.id} can be at most 0.0001 BTC, the network's minimum.`);
    const larger = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { ...FULL, amount: { kind: "custom", units: BTC_MINIMUM } },
      actor,
      box: database.box,
    });
    expect(larger.refund.owedAmount).toBe(BTC_MINIMUM);
    // Another coin instead, for the amount owed.
    await cancelRefund(database.db, { merchantId, refundId: larger.refund.id, actor });
    const other = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { ...FULL, rateBasis: "now", currencies: ["LTC"] },
      actor,
      box: database.box,
    });
    await expect(claim(other.token)).rejects.toMatchObject({ status: 400 });
    const claimed = await claim(other.token, { currency: "LTC", address: LTC_ADDRESS });
    expect(claimed.payout).toMatchObject({ currency: "LTC", amount: (extra * BTC_USD) / LTC_USD });
  });

  it("refuses the excess of an invoice that was not overpaid, and another merchant's invoice", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { timer: false });
    const half = invoice.invoice.senderAmount! / 2n;
    await pay(database.db, invoice, half);
    await confirm(database.db, "BTC");
    expect(
      (
        await fieldsOf(
          issueRefund(database.db, {
            merchantId,
            invoiceId: invoice.id,
            terms: { ...FULL, amount: { kind: "excess" } },
            actor,
            box: database.box,
          }),
        )
      ).amount,
    ).toMatch(/was not overpaid/);
    const other = await createTestMerchant(database, "Stranger Shop");
    await expect(
      issueRefund(database.db, {
        merchantId: other,
        invoiceId: invoice.id,
        terms: FULL,
        actor,
        box: database.box,
      }),
    ).rejects.toMatchObject({ status: 404 });
    const { refund } = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: FULL,
      actor,
      box: database.box,
    });
    expect(refund.owedAmount).toBe(half);
    expect(await readRefund(database.db, { merchantId, foreignId: invoice.foreignId })).toMatchObject({
      id: refund.id,
    });
    expect(await readRefund(database.db, { merchantId: other, id: refund.id })).toBeUndefined();
  });
});
