import { writeFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { type RemovedPayment, settleRemovedPayment } from "@/lib/chain/evm/settle-removed-payment";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { runCliCommand } from "@/lib/cli/commands";
import { bookComplianceRefund } from "@/lib/compliance/book-compliance-refund";
import { decideReview } from "@/lib/compliance/decide-review";
import { listReviews } from "@/lib/compliance/list-reviews";
import { setReviewThreshold } from "@/lib/compliance/set-review-threshold";
import { queryRows } from "@/lib/db/client";
import { auditEntries, callbacks, complianceReviews, merchants } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { KassaError } from "@/lib/errors";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { listBalances } from "@/lib/ledger/list-balances";
import { parseDecimal } from "@/lib/money";
import { changeMemberRole } from "@/lib/team/change-member-role";
import { removeMember } from "@/lib/team/remove-member";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pricingWith, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { addMembers, lockWaiters } from "../support/team-races";
import { waitUntil } from "../support/wait";

// The operator's lists and rules, as the installation reads them (docs/compliance.md).
// Set before anything reads the configuration: the built-in provider is built from it once.
const lists = vi.hoisted(() => {
  const { mkdtempSync, writeFileSync } = require("node:fs") as typeof import("node:fs");
  const dir = mkdtempSync(`${require("node:os").tmpdir()}/kassa-screening-`);
  const denylist = `${dir}/denylist.txt`;
  const allowlist = `${dir}/allowlist.txt`;
  writeFileSync(
    denylist,
    "# sanctions list\nLTCdenied1111111111111111111111111  # a comment after the address\n\n",
  );
  writeFileSync(allowlist, "LTCtrusted111111111111111111111111\n");
  process.env.KASSA_SCREENING_DENYLIST = denylist;
  process.env.KASSA_SCREENING_ALLOWLIST = allowlist;
  process.env.KASSA_SCREENING_AMOUNT_LIMITS = "LTC=5";
  process.env.KASSA_SCREENING_NEW_CUSTOMER_LIMITS = "LTC=3";
  return { denylist, allowlist };
});

const DENIED = "LTCdenied1111111111111111111111111";
const TRUSTED = "LTCtrusted111111111111111111111111";
const SPREAD = 5_000;

describe(`compliance screening and review on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let userId: number;
  let customer = 0;
  const audit = () => ({ actor: { kind: "user" as const, userId, email: "screen@example.com" } });

  const balance = async (currency: string) =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === currency)?.balance ?? 0n;
  const heldAccount = async (currency: string) => {
    const [row] = await queryRows<{ balance: string }>(
      database.db,
      sql`select balance::text as balance from ledger_accounts where kind = 'platform:compliance_held' and currency = ${currency}`,
    );
    return row ? parseDecimal(row.balance) : 0n;
  };
  /** A new customer's permanent LTC address paid `amount` from `sender`, confirmed; returns its deposit transaction. */
  async function deposit(amount: string, sender?: string, foreignId = `screen-customer-${++customer}`) {
    const address = await takeAddress(database.db, testKeys, { merchantId, foreignId, currency: "LTC" });
    const payment = await sendSandboxPayment(database.db, {
      currency: "LTC",
      address: address.address,
      amount: parseDecimal(amount),
      sender_address: sender,
    });
    await confirm(database.db, "LTC");
    const [row] = await queryRows<{ id: string }>(
      database.db,
      sql`select d.transaction_id::text as id from deposits d join chain_transactions c on c.id = d.chain_transaction_id where c.txid = ${payment.txid}`,
    );
    return Number(row!.id);
  }
  const reviewOf = async (transactionId: number) =>
    (
      await database.db
        .select()
        .from(complianceReviews)
        .where(eq(complianceReviews.transactionId, transactionId))
    )[0];
  const callbackEvents = async (transactionId: number) =>
    (
      await database.db
        .select({ event: callbacks.event, body: callbacks.body })
        .from(callbacks)
        .where(eq(callbacks.transactionId, transactionId))
        .orderBy(callbacks.id)
    ).map((row) => ({ event: row.event, status: (JSON.parse(row.body) as { status: string }).status }));
  /** 0.5% deposit fee (registry), rounded down as the ledger does: what the merchant nets. */
  const net = (amount: string) => parseDecimal(amount) - (parseDecimal(amount) * 5n) / 1000n;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Screen");
    await database.db
      .update(merchants)
      .set({ callbackUrl: "https://merchant.example/callbacks" })
      .where(eq(merchants.id, merchantId));
    const [user] = await queryRows<{ id: string }>(
      database.db,
      sql`select id::text from users where merchant_id = ${merchantId}`,
    );
    userId = Number(user!.id);
  });
  afterAll(() => database.drop());

  it("holds a denylisted sender's payment as verifying with score 100, uncredited, in the queue", async () => {
    const before = await balance("LTC");
    const id = await deposit("1", DENIED);
    const info = await describeTransaction(database.db, id);
    expect(info.status).toBe("not_confirmed");
    expect(info.transactions[0]).toMatchObject({ transaction_type: "blockchain", riskscore: "100" });
    expect(await balance("LTC")).toBe(before);
    const queue = await listReviews(database.db, { merchantId, status: "held" });
    expect(queue.map((r) => r.transaction_id)).toContain(id);
    expect(queue.find((r) => r.transaction_id === id)).toMatchObject({
      score: "100",
      sender_address: DENIED,
      amount: "1.00000000",
      reasons: [`Sender ${DENIED} is on the denylist.`],
    });
    expect(await callbackEvents(id)).toEqual([
      { event: "deposit.processing", status: "not_confirmed" },
      { event: "deposit.verifying", status: "not_confirmed" },
    ]);
  });

  it("credits a released payment exactly once however many releases race, with its callback and audit entry", async () => {
    const id = await deposit("2", DENIED);
    const review = (await reviewOf(id))!;
    const before = await balance("LTC");
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        decideReview(database.db, {
          merchantId,
          reviewId: review.id,
          userId,
          decision: "release",
          audit: audit(),
          pricing: pricingWith(SPREAD),
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const refused of results.filter((r) => r.status === "rejected")) {
      expect(refused.reason).toBeInstanceOf(KassaError);
      expect((refused.reason as KassaError).fields).toEqual({
        id: "This payment needs no decision: it was already released.",
      });
    }
    expect(await balance("LTC")).toBe(before + net("2"));
    expect((await describeTransaction(database.db, id)).status).toBe("confirmed");
    expect((await callbackEvents(id)).map((c) => c.event)).toEqual([
      "deposit.processing",
      "deposit.verifying",
      "deposit.confirmed",
    ]);
    const entries = await database.db
      .select({ action: auditEntries.action, detail: auditEntries.detail })
      .from(auditEntries)
      .where(and(eq(auditEntries.merchantId, merchantId), eq(auditEntries.action, "review_released")));
    expect(entries).toEqual([{ action: "review_released", detail: `transaction ${id}: 2 LTC, score 100` }]);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  it("books a rejected payment to platform:compliance_held, cancelled on the wire, never to the merchant", async () => {
    const id = await deposit("1.5", DENIED);
    const review = (await reviewOf(id))!;
    const before = await balance("LTC");
    const heldBefore = await heldAccount("LTC");
    await decideReview(database.db, {
      merchantId,
      reviewId: review.id,
      userId,
      decision: "reject",
      audit: audit(),
      pricing: pricingWith(SPREAD),
    });
    expect(await balance("LTC")).toBe(before);
    expect(await heldAccount("LTC")).toBe(heldBefore + parseDecimal("1.5"));
    expect((await describeTransaction(database.db, id)).status).toBe("cancelled");
    expect((await callbackEvents(id)).at(-1)).toEqual({ event: "deposit.rejected", status: "cancelled" });
    // A release after the rejection is refused: the first decision stands.
    expect(
      await fieldsOf(
        decideReview(database.db, {
          merchantId,
          reviewId: review.id,
          userId,
          decision: "release",
          audit: audit(),
          pricing: pricingWith(SPREAD),
        }),
      ),
    ).toEqual({ id: "This payment needs no decision: it was already rejected." });
    expect((await ledgerInvariants(database.db)).nonZeroCurrencies).toEqual([]);
    const decided = await listReviews(database.db, { merchantId, status: "decided" });
    expect(decided.find((r) => r.transaction_id === id)).toMatchObject({
      status: "rejected",
      decided_by: "screen@example.com",
    });
  });

  it("books the operator's refund of a rejected payment once, refusing a second or a held one", async () => {
    const id = await deposit("2", DENIED);
    const review = (await reviewOf(id))!;
    const refund = (reviewId: number, txid: string) =>
      bookComplianceRefund(database.db, {
        reviewId,
        txid,
        fee: parseDecimal("0.001"),
        gas: 0n,
        audit: { actor: { kind: "cli" } },
      });
    // Still held: nothing to refund.
    expect(await fieldsOf(refund(review.id, "ab".repeat(32)))).toEqual({
      review: "Only a rejected payment is refunded: this one is held.",
    });
    await decideReview(database.db, {
      merchantId,
      reviewId: review.id,
      userId,
      decision: "reject",
      audit: audit(),
      pricing: pricingWith(SPREAD),
    });
    const heldBefore = await heldAccount("LTC");
    const results = await Promise.allSettled([
      refund(review.id, "cd".repeat(32)),
      refund(review.id, "ef".repeat(32)),
      refund(review.id, "cd".repeat(32)),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const booked = (
      results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<
        Awaited<ReturnType<typeof refund>>
      >
    ).value;
    expect(booked).toMatchObject({
      currency: "LTC",
      amount: "2.00000000",
      sent: "1.99900000",
      fee: "0.00100000",
    });
    expect(await heldAccount("LTC")).toBe(heldBefore - parseDecimal("2"));
    const decided = await listReviews(database.db, { merchantId, status: "decided" });
    expect(decided.find((r) => r.transaction_id === id)).toMatchObject({
      status: "rejected",
      refund_txid: booked.refund_txid,
      refunded_at: booked.refunded_at,
    });
    expect(await fieldsOf(refund(review.id, "12".repeat(32)))).toEqual({
      review: "This payment's refund is already booked.",
    });
    const stored = (await reviewOf(id))!;
    expect(stored.refundTxid).toBe(booked.refund_txid);
    expect(stored.refundedAt).not.toBeNull();
    const [journal] = await queryRows<{ count: string }>(
      database.db,
      sql`select count(*)::text as count from journals where kind = 'compliance_refund' and transaction_id = ${id}`,
    );
    expect(journal!.count).toBe("1");
    const [entry] = await database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.merchantId, merchantId), eq(auditEntries.action, "review_refunded")));
    expect(entry?.detail).toBe(`review ${review.id}: 1.99900000 LTC refunded, txid ${booked.refund_txid}`);
    expect((await ledgerInvariants(database.db)).nonZeroCurrencies).toEqual([]);
  });

  it("the CLI books a refund with no fee and answers a field error for a negative one", async () => {
    const id = await deposit("1", DENIED);
    const review = (await reviewOf(id))!;
    await decideReview(database.db, {
      merchantId,
      reviewId: review.id,
      userId,
      decision: "reject",
      audit: audit(),
      pricing: pricingWith(SPREAD),
    });
    const env = { db: database.db, box: database.box, isSandbox: true };
    const txid = `0x${"7a".repeat(32)}`;
    expect(
      await fieldsOf(
        runCliCommand(
          { name: "compliance.refund", args: { review: String(review.id), txid, fee: "-1" } },
          env,
        ),
      ),
    ).toEqual({ fee: expect.stringContaining("greater than zero") });
    const heldBefore = await heldAccount("LTC");
    expect(
      await runCliCommand(
        { name: "compliance.refund", args: { review: String(review.id), txid, fee: "0" } },
        env,
      ),
    ).toMatchObject({ review_id: review.id, sent: "1.00000000", fee: "0.00000000", refund_txid: txid });
    expect(await heldAccount("LTC")).toBe(heldBefore - parseDecimal("1"));
    expect((await ledgerInvariants(database.db)).nonZeroCurrencies).toEqual([]);
  });

  it("another merchant cannot decide this merchant's review", async () => {
    const id = await deposit("1", DENIED);
    const other = await createTestMerchant(database, "Elsewhere");
    const [stranger] = await addMembers(database, {
      merchantId: other,
      prefix: "elsewhere",
      roles: ["owner"],
    });
    const review = (await reviewOf(id))!;
    await expect(
      decideReview(database.db, {
        merchantId: other,
        reviewId: review.id,
        userId: stranger!,
        decision: "release",
        audit: audit(),
        pricing: pricingWith(SPREAD),
      }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("scores the rules: a large payment alone passes at 60, a new customer's large first payment is held at 100", async () => {
    const large = await deposit("6", undefined);
    // new customer AND over the amount limit: 60 + 40
    expect((await describeTransaction(database.db, large)).status).toBe("not_confirmed");
    expect((await reviewOf(large))!.reasons).toEqual([
      "Amount at or above 5 LTC.",
      "First payment of a new customer at or above 3 LTC.",
    ]);
    // The same customer again, over the amount limit only (their first payment is no longer their first once credited).
    const first = await deposit("1", undefined, "regular-customer");
    expect((await describeTransaction(database.db, first)).transactions[0]!.riskscore).toBe("0");
    const second = await deposit("6", undefined, "regular-customer");
    const info = await describeTransaction(database.db, second);
    expect(info.status).toBe("confirmed");
    expect(info.transactions[0]!.riskscore).toBe("60");
    expect(await reviewOf(second)).toBeUndefined();
  });

  it("lets an allowlisted sender through at 0 whatever the rules say", async () => {
    const id = await deposit("6", TRUSTED);
    const info = await describeTransaction(database.db, id);
    expect(info.status).toBe("confirmed");
    expect(info.transactions[0]!.riskscore).toBe("0");
  });

  it("reads the denylist again when it changes, and applies the merchant's threshold", async () => {
    const newcomer = "LTCnewlydenied1111111111111111111";
    expect((await describeTransaction(database.db, await deposit("1", newcomer))).status).toBe("confirmed");
    writeFileSync(lists.denylist, `${DENIED}\n${newcomer}\n# updated\n`);
    expect((await describeTransaction(database.db, await deposit("1", newcomer))).status).toBe(
      "not_confirmed",
    );

    expect(
      await fieldsOf(setReviewThreshold(database.db, { merchantId, threshold: "100.5", audit: audit() })),
    ).toEqual({
      threshold: "Type a score from 0 to 100, with at most two decimals.",
    });
    expect(await setReviewThreshold(database.db, { merchantId, threshold: "55.50", audit: audit() })).toBe(
      "55.5",
    );
    // 60 (large amount, known customer) is now at or above the threshold.
    await deposit("1", undefined, "known-customer");
    const held = await deposit("6", undefined, "known-customer");
    expect((await describeTransaction(database.db, held)).status).toBe("not_confirmed");
    await setReviewThreshold(database.db, { merchantId, threshold: "80", audit: audit() });
  });

  it("keeps an invoice processing while its payment is held; release confirms it, reject returns it to pending", async () => {
    const released = await createFixedInvoice(database.db, merchantId, "LTC", { amount: "10" });
    const due = released.invoice.senderAmount!;
    await sendSandboxPayment(database.db, {
      currency: "LTC",
      address: released.address!.address,
      amount: due,
      sender_address: DENIED,
    });
    await confirm(database.db, "LTC");
    expect((await loadInvoiceById(database.db, released.id))!.status).toBe("processing");
    const before = await balance("EUR");
    await decideReview(database.db, {
      merchantId,
      reviewId: (await reviewOf(released.id))!.id,
      userId,
      decision: "release",
      audit: audit(),
      pricing: pricingWith(SPREAD),
    });
    expect((await loadInvoiceById(database.db, released.id))!.status).toBe("confirmed");
    expect(await balance("EUR")).toBeGreaterThan(before);

    const rejected = await createFixedInvoice(database.db, merchantId, "LTC", { amount: "10" });
    await sendSandboxPayment(database.db, {
      currency: "LTC",
      address: rejected.address!.address,
      amount: rejected.invoice.senderAmount!,
      sender_address: DENIED,
    });
    await confirm(database.db, "LTC");
    await decideReview(database.db, {
      merchantId,
      reviewId: (await reviewOf(rejected.id))!.id,
      userId,
      decision: "reject",
      audit: audit(),
      pricing: pricingWith(SPREAD),
    });
    const record = (await loadInvoiceById(database.db, rejected.id))!;
    expect(record.status).toBe("pending");
    expect(record.invoice.paidAmount).toBe(0n);
    expect((await ledgerInvariants(database.db)).nonZeroCurrencies).toEqual([]);
  });

  it("decides a release and a reject racing from two members exactly once, booked and called back once", async () => {
    const [finance, admin] = await addMembers(database, {
      merchantId,
      prefix: "racers",
      roles: ["finance", "admin"],
    });
    const as = (member: number) => ({
      actor: { kind: "user" as const, userId: member, email: `m${member}@example.com` },
    });
    for (let round = 0; round < 4; round++) {
      const id = await deposit("1", DENIED);
      const review = (await reviewOf(id))!;
      const [before, heldBefore] = [await balance("LTC"), await heldAccount("LTC")];
      // Alternate who asks first, so either decision gets its chance to win.
      const racers = [
        { userId: finance!, decision: "release" as const },
        { userId: admin!, decision: "reject" as const },
      ];
      if (round % 2) racers.reverse();
      const settled = await Promise.allSettled(
        racers.map((racer) =>
          decideReview(database.db, {
            merchantId,
            reviewId: review.id,
            ...racer,
            audit: as(racer.userId),
            pricing: pricingWith(SPREAD),
          }),
        ),
      );
      const won = settled.filter((s) => s.status === "fulfilled") as PromiseFulfilledResult<{
        status: string;
      }>[];
      expect(won).toHaveLength(1);
      const outcome = won[0]!.value.status;
      const lost = settled.find((s) => s.status === "rejected") as PromiseRejectedResult;
      expect((lost.reason as KassaError).fields).toEqual({
        id: `This payment needs no decision: it was already ${outcome}.`,
      });
      const events = (await callbackEvents(id)).map((c) => c.event);
      const trail = await database.db
        .select({ action: auditEntries.action })
        .from(auditEntries)
        .where(
          and(
            eq(auditEntries.merchantId, merchantId),
            eq(auditEntries.detail, `transaction ${id}: 1 LTC, score 100`),
          ),
        );
      if (outcome === "released") {
        expect(await balance("LTC")).toBe(before + net("1"));
        expect(await heldAccount("LTC")).toBe(heldBefore);
        expect(events.slice(2)).toEqual(["deposit.confirmed"]);
        expect(trail).toEqual([{ action: "review_released" }]);
      } else {
        expect(await balance("LTC")).toBe(before);
        expect(await heldAccount("LTC")).toBe(heldBefore + parseDecimal("1"));
        expect(events.slice(2)).toEqual(["deposit.rejected"]);
        expect(trail).toEqual([{ action: "review_rejected" }]);
      }
    }
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  it("refuses a decision by a member removed or demoted after their request's session check", async () => {
    const [removed, demoted] = await addMembers(database, {
      merchantId,
      prefix: "leavers",
      roles: ["finance", "admin"],
    });
    const id = await deposit("1", DENIED);
    const review = (await reviewOf(id))!;
    await removeMember(database.db, { merchantId, userId: removed!, actorId: userId, audit: audit() });
    await changeMemberRole(database.db, {
      merchantId,
      userId: demoted!,
      role: "developer",
      actorId: userId,
      audit: audit(),
    });
    for (const [member, message] of [
      [removed!, "You are no longer a member of this team."],
      [demoted!, "Your role (developer) does not allow this. Ask an owner or an admin of your team."],
    ] as const)
      await expect(
        decideReview(database.db, {
          merchantId,
          reviewId: review.id,
          userId: member,
          decision: "release",
          audit: audit(),
          pricing: pricingWith(SPREAD),
        }),
      ).rejects.toMatchObject({ status: 403, message });
    expect((await reviewOf(id))!.status).toBe("held");
    expect((await describeTransaction(database.db, id)).status).toBe("not_confirmed");
  });

  it("records an incident when a release commits while a reorganisation waits to remove the payment", async () => {
    const id = await deposit("1", DENIED);
    const review = (await reviewOf(id))!;
    // The row as the reorganisation's statement read it (lib/chain/evm/unwind-reorg.ts): its
    // snapshot still says held, since the release it waited for committed after it began.
    const [removed] = await queryRows<RemovedPayment>(
      database.db,
      sql`select c.id, c.txid, c.log_index, c.block_height, c.block_hash, d.id as deposit_id, d.status as deposit_status
          from deposits d join chain_transactions c on c.id = d.chain_transaction_id where d.transaction_id = ${id}`,
    );
    expect(removed!.deposit_status).toBe("held");
    await decideReview(database.db, {
      merchantId,
      reviewId: review.id,
      userId,
      decision: "release",
      audit: audit(),
      pricing: pricingWith(SPREAD),
    });
    const outcome = await inTransaction(database.db, async (tx) => {
      await tx.execute(sql`update chain_transactions set removed_at = now() where id = ${removed!.id}`);
      return settleRemovedPayment(tx, { network: "litecoin", payment: removed! });
    });
    expect(outcome).toBe("incident");
    expect(
      await queryRows<{ kind: string }>(
        database.db,
        sql`select kind from chain_incidents where deposit_id = ${removed!.deposit_id}`,
      ),
    ).toEqual([{ kind: "credited_payment_removed" }]);
  });

  if (testDriver === "pg") {
    it("refuses a release racing the reorganisation that removes the payment's block", async () => {
      const id = await deposit("1", DENIED);
      const review = (await reviewOf(id))!;
      const before = await balance("LTC");
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let marked!: () => void;
      const isMarked = new Promise<void>((resolve) => {
        marked = resolve;
      });
      // The reorganisation's own update of the payment's row (lib/chain/evm/unwind-reorg.ts),
      // made before the release reads it and committed while the release is under way.
      const reorg = database.db.transaction(async (tx) => {
        await tx.execute(
          sql`update chain_transactions set removed_at = now()
              where id = (select chain_transaction_id from deposits where transaction_id = ${id})`,
        );
        marked();
        await committed;
      });
      await isMarked;
      const release = decideReview(database.db, {
        merchantId,
        reviewId: review.id,
        userId,
        decision: "release",
        audit: audit(),
        pricing: pricingWith(SPREAD),
      });
      const settled = release.then(
        () => "released",
        () => "refused",
      );
      // Either the release finished without waiting (and credited a removed payment), or it waits.
      await Promise.race([
        settled,
        waitUntil(async () => (await lockWaiters(database.db)) >= 1, {
          what: "the release waits for the payment",
        }),
      ]);
      commit();
      await reorg;
      expect(await fieldsOf(release)).toEqual({
        id: "A reorganisation removed this payment's block from the chain: it cannot be credited. Reject it instead.",
      });
      expect(await balance("LTC")).toBe(before);
      expect((await reviewOf(id))!.status).toBe("held");
    });
  }
});
