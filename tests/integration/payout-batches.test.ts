import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEntries, jobs, merchants, payoutBatches, users, withdrawals } from "@/lib/db/schema";
import type { KassaError } from "@/lib/errors";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { parseDecimal } from "@/lib/money";
import { decidePayoutBatch } from "@/lib/payout-batches/decide-payout-batch";
import { readPayoutBatch } from "@/lib/payout-batches/read-payout-batch";
import { PayoutBatchRowsError, sendPayoutBatch } from "@/lib/payout-batches/send-payout-batch";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { decideWithdrawal } from "@/lib/withdrawals/decide-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { handlers, pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
// The same address with its last character changed: its bech32 checksum no longer holds.
const BTC_BAD_CHECKSUM = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv";
// What the BTC network fee (registry) adds to each withdrawal's debit.
const BTC_NETWORK_FEE = parseDecimal("0.00002");
const SENDER = {
  sender_type: "legal" as const,
  sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
};

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

/** A payout row as the API takes it: BTC to a natural person unless overridden. */
function payout(overrides: Record<string, unknown> = {}) {
  return {
    currency: "BTC",
    amount: "0.01",
    address: BTC_ADDRESS,
    foreign_id: unique("row"),
    receiver_type: "natural",
    receiver_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    ...overrides,
  };
}

const rowsOf = (payouts: unknown[]) => payouts.map((p, index) => ({ row: index + 1, payout: p }));

describe(`bulk payouts on ${testDriver}`, () => {
  let database: TestDatabase;

  /** A merchant holding `btc` BTC, with an owner and a second user, and optional BTC limits. */
  async function shop(btc: string, limits?: { perWithdrawal: string; perDay?: string }) {
    const name = unique("Bulk");
    const merchantId = await createTestMerchant(database, name);
    await database.db
      .update(merchants)
      .set({ callbackUrl: "https://merchant.example/callbacks" })
      .where(eq(merchants.id, merchantId));
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal(btc),
      isSandbox: true,
    });
    if (limits) await setWithdrawalLimits(database.db, { merchantId, currency: "BTC", ...limits });
    const [owner] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.merchantId, merchantId));
    const [other] = await database.db
      .insert(users)
      .values({ merchantId, email: `finance@${name.toLowerCase()}.example`, passwordHash: "unused" })
      .returning({ id: users.id });
    const balance = async () =>
      (await listBalances(database.db, merchantId)).find((b) => b.currency === "BTC")?.balance ?? 0n;
    const send = (payouts: unknown[], extra: { reference?: string; createdByUserId?: number } = {}) =>
      sendPayoutBatch(database.db, {
        merchantId,
        reference: extra.reference ?? unique("batch"),
        sender: SENDER,
        rows: rowsOf(payouts),
        pricing,
        createdByUserId: extra.createdByUserId,
      });
    const batchCount = async () =>
      (
        await database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(payoutBatches)
          .where(eq(payoutBatches.merchantId, merchantId))
      )[0]!.n;
    const withdrawalCount = async () =>
      (
        await database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(withdrawals)
          .where(eq(withdrawals.merchantId, merchantId))
      )[0]!.n;
    return { merchantId, ownerId: owner!.id, otherId: other!.id, balance, send, batchCount, withdrawalCount };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("sends every payout of a valid batch, each debited with its fees, and reads back its progress", async () => {
    const s = await shop("1");
    const amounts = ["0.01", "0.02", "0.035"];
    const { batchId, needsApproval, isRepeat } = await s.send(amounts.map((amount) => payout({ amount })));
    expect({ needsApproval, isRepeat }).toEqual({ needsApproval: false, isRepeat: false });
    // Independent of the engine: each payout costs its amount plus the BTC network fee.
    const spent = amounts.reduce((sum, a) => sum + parseDecimal(a) + BTC_NETWORK_FEE, 0n);
    expect(await s.balance()).toBe(parseDecimal("1") - spent);
    const view = await readPayoutBatch(database.db, { merchantId: s.merchantId, batchId });
    expect(view.status).toBe("processing");
    expect(view.payouts.map((p) => [p.row, p.amount, p.status])).toEqual([
      [1, "0.01000000", "not_confirmed"],
      [2, "0.02000000", "not_confirmed"],
      [3, "0.03500000", "not_confirmed"],
    ]);
    expect(view.totals).toEqual([
      { currency: "BTC", amount: "0.06500000", fee: "0.00006000", total_debit: "0.06506000" },
    ]);
    await runDueJobs(database.db, handlers);
    const sent = await readPayoutBatch(database.db, { merchantId: s.merchantId, batchId });
    expect(sent.payouts.every((p) => /^[0-9a-f]{64}$/.test(p.txid ?? ""))).toBe(true);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  it("lists every problem by row and field, and sends nothing when any row is bad", async () => {
    const s = await shop("1");
    const earlier = await createWithdrawal(database.db, {
      ...withdrawalInput(
        s.merchantId,
        withdrawalRequest.parse({
          ...payout({ foreign_id: "paid-in-october" }),
          end_user_reference: "payee-1",
          ...SENDER,
        }),
        pricing,
      ),
    });
    expect(earlier.status).toBe("processing");
    const before = await s.balance();
    const error = await s
      .send([
        payout({ foreign_id: "ok-1" }),
        payout({ address: BTC_BAD_CHECKSUM }),
        payout({ receiver_data: { first_name: "Ada", date_of_birth: "1990-12-10" } }),
        payout({ amount: "0.00000001" }),
        payout({ foreign_id: "ok-1" }),
        payout({ foreign_id: "paid-in-october" }),
        payout({ currency: "EUR", amount: "10" }),
        payout({ amount: "1", amount_to: "1" }),
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutBatchRowsError);
    const rows = (error as PayoutBatchRowsError).rows.map((e) => [e.row, e.field]);
    expect(rows).toEqual([
      [2, "address"],
      [3, "receiver_data.last_name"],
      [4, "amount"],
      [5, "foreign_id"],
      [6, "foreign_id"],
      [7, "currency"],
      [8, "amount"],
      [8, "amount_to"],
    ]);
    const messages = (error as PayoutBatchRowsError).rows.map((e) => e.message);
    expect(messages[3]).toBe("The foreign id is also on row 1: each payout needs its own.");
    expect(messages[4]).toBe(`The foreign id has already been taken (transaction ${earlier.id}).`);
    // The API's shape: payouts.<index from 0>.<field>.
    expect((error as KassaError).fields).toMatchObject({
      "payouts.1.address": expect.stringContaining("BTC"),
    });
    expect(await s.balance()).toBe(before);
    expect(await s.batchCount()).toBe(0);
    expect(await s.withdrawalCount()).toBe(1);
  });

  it("refuses a batch its balance cannot pay, saying what it needs, and sends nothing", async () => {
    const s = await shop("0.05");
    const fields = await fieldsOf(s.send([payout({ amount: "0.03" }), payout({ amount: "0.03" })]));
    expect(fields).toEqual({
      payouts:
        "Insufficient funds: these payouts need 0.06004 BTC from your balance, fees included, and it holds 0.05 BTC.",
    });
    expect(await s.balance()).toBe(parseDecimal("0.05"));
    expect(await s.withdrawalCount()).toBe(0);
  });

  it("holds a batch over a limit (its total counted) for one approval of the whole batch", async () => {
    // Each payout is within 0.05, the batch's 0.06 is not.
    const s = await shop("1", { perWithdrawal: "0.05" });
    const { batchId, needsApproval } = await s.send(
      [payout({ amount: "0.03" }), payout({ amount: "0.03" })],
      {
        createdByUserId: s.ownerId,
      },
    );
    expect(needsApproval).toBe(true);
    const view = await readPayoutBatch(database.db, { merchantId: s.merchantId, batchId });
    expect(view.status).toBe("awaiting_approval");
    expect(view.payouts.map((p) => p.status)).toEqual(["pending", "pending"]);
    // Reserved meanwhile, and nothing leaves.
    expect(await s.balance()).toBe(parseDecimal("1") - parseDecimal("0.06") - 2n * BTC_NETWORK_FEE);
    await runDueJobs(database.db, handlers);
    expect(
      (await readPayoutBatch(database.db, { merchantId: s.merchantId, batchId })).payouts[0]!.txid,
    ).toBeNull();
    // One payout of it cannot be decided on its own, and the sender cannot approve it.
    const single = await fieldsOf(
      decideWithdrawal(database.db, {
        merchantId: s.merchantId,
        withdrawalId: view.payouts[0]!.id,
        userId: s.otherId,
        decision: "approve",
      }),
    );
    expect(single.id).toContain(`of bulk payout ${batchId}: approve or decline the bulk payout as a whole`);
    const bySender = await decidePayoutBatch(database.db, {
      merchantId: s.merchantId,
      batchId,
      userId: s.ownerId,
      decision: "approve",
    }).catch((e: unknown) => e);
    expect((bySender as KassaError).status).toBe(403);

    const approved = await decidePayoutBatch(database.db, {
      merchantId: s.merchantId,
      batchId,
      userId: s.otherId,
      decision: "approve",
      audit: { actor: { kind: "user", userId: s.otherId, email: "finance@example" } },
    });
    expect(approved).toEqual({ decided: 2 });
    await runDueJobs(database.db, handlers);
    const after = await readPayoutBatch(database.db, { merchantId: s.merchantId, batchId });
    expect(after.payouts.map((p) => p.status)).toEqual(["not_confirmed", "not_confirmed"]);
    expect(after.payouts.every((p) => p.txid !== null)).toBe(true);
    const audit = await database.db
      .select({ action: auditEntries.action, detail: auditEntries.detail })
      .from(auditEntries)
      .where(and(eq(auditEntries.merchantId, s.merchantId), eq(auditEntries.action, "payout_approved")));
    expect(audit).toEqual([
      { action: "payout_approved", detail: expect.stringContaining(`bulk payout ${batchId}`) },
    ]);
    // Decided once, not again.
    expect(
      await fieldsOf(
        decidePayoutBatch(database.db, {
          merchantId: s.merchantId,
          batchId,
          userId: s.otherId,
          decision: "decline",
        }),
      ),
    ).toEqual({ id: "This bulk payout needs no decision: it was already approved or declined." });
  });

  it("returns every payout's funds when the batch is declined", async () => {
    const s = await shop("1", { perWithdrawal: "0.01" });
    const { batchId } = await s.send([payout({ amount: "0.02" }), payout({ amount: "0.03" })]);
    await decidePayoutBatch(database.db, {
      merchantId: s.merchantId,
      batchId,
      userId: s.otherId,
      decision: "decline",
    });
    expect(await s.balance()).toBe(parseDecimal("1"));
    const view = await readPayoutBatch(database.db, { merchantId: s.merchantId, batchId });
    expect(view.status).toBe("declined");
    expect((await ledgerInvariants(database.db)).nonZeroCurrencies).toEqual([]);
    const broadcasts = await database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        sql`${jobs.queue} = 'withdrawal.broadcast' and (${jobs.payload}->>'withdrawalId')::bigint in (${sql.join(
          view.payouts.map((p) => sql`${p.id}`),
          sql`, `,
        )})`,
      );
    expect(broadcasts).toEqual([]);
  });

  it("sends the same batch once, however often and however concurrently it is sent", async () => {
    const s = await shop("1");
    const payouts = [payout({ amount: "0.01" }), payout({ amount: "0.02" })];
    const reference = unique("november");
    const results = await Promise.all(Array.from({ length: 4 }, () => s.send(payouts, { reference })));
    expect(new Set(results.map((r) => r.batchId)).size).toBe(1);
    expect(results.filter((r) => !r.isRepeat)).toHaveLength(1);
    // Again later, the numbers written as numbers this time: the same payouts.
    const again = await s.send(
      payouts.map((p) => ({ ...p, amount: Number(p.amount), tag: null })),
      { reference },
    );
    expect(again).toMatchObject({ batchId: results[0]!.batchId, isRepeat: true });
    expect(await s.withdrawalCount()).toBe(2);
    expect(await s.balance()).toBe(parseDecimal("1") - parseDecimal("0.03") - 2n * BTC_NETWORK_FEE);
    // The reference with other payouts is a mistake, not a repeat.
    expect(await fieldsOf(s.send([payout({ amount: "0.05" })], { reference }))).toEqual({
      reference: `This reference was already used for bulk payout ${results[0]!.batchId}, with other payouts. Choose another reference.`,
    });
  });

  it("never overdraws when a batch races a withdrawal for the same balance: all of the batch or none", async () => {
    for (let round = 0; round < 4; round++) {
      const s = await shop("0.1");
      const batch = [payout({ amount: "0.03" }), payout({ amount: "0.03" })];
      const single = createWithdrawal(database.db, {
        ...withdrawalInput(
          s.merchantId,
          withdrawalRequest.parse({ ...payout({ amount: "0.05" }), end_user_reference: "payee", ...SENDER }),
          pricing,
        ),
      });
      const [fromBatch, fromSingle] = await Promise.allSettled([s.send(batch), single]);
      const balance = await s.balance();
      expect(balance).toBeGreaterThanOrEqual(0n);
      const ok = (r: PromiseSettledResult<unknown>) => r.status === "fulfilled";
      // 0.06004 + 0.05002 > 0.1: at most one of them went out, and the balance says which.
      expect(ok(fromBatch) && ok(fromSingle)).toBe(false);
      const expected =
        parseDecimal("0.1") -
        (ok(fromBatch) ? parseDecimal("0.06") + 2n * BTC_NETWORK_FEE : 0n) -
        (ok(fromSingle) ? parseDecimal("0.05") + BTC_NETWORK_FEE : 0n);
      expect(balance).toBe(expected);
      expect(await s.withdrawalCount()).toBe((ok(fromBatch) ? 2 : 0) + (ok(fromSingle) ? 1 : 0));
      if (!ok(fromBatch)) {
        const reason = (fromBatch as PromiseRejectedResult).reason as KassaError;
        expect(reason.fields?.payouts).toMatch(/^Insufficient funds/);
        expect(await s.batchCount()).toBe(0);
      }
    }
    expect((await ledgerInvariants(database.db)).negativeMerchantBalances).toBe(0);
  });

  it("keeps each merchant's batches to itself", async () => {
    const a = await shop("1");
    const b = await shop("1");
    const { batchId } = await a.send([payout()]);
    const error = await readPayoutBatch(database.db, { merchantId: b.merchantId, batchId }).catch(
      (e: unknown) => e,
    );
    expect((error as KassaError).status).toBe(404);
    const decide = await decidePayoutBatch(database.db, {
      merchantId: b.merchantId,
      batchId,
      userId: b.otherId,
      decision: "approve",
    }).catch((e: unknown) => e);
    expect((decide as KassaError).status).toBe(404);
    const rows = await database.db
      .select({ row: withdrawals.batchRow })
      .from(withdrawals)
      .where(eq(withdrawals.batchId, batchId))
      .orderBy(asc(withdrawals.batchRow));
    expect(rows).toEqual([{ row: 1 }]);
  });
});
