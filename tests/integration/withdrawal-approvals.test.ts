import { and, asc, eq } from "drizzle-orm";
import { generate, generateSecret } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySecondFactor } from "@/lib/approvals/verify-second-factor";
import { enableTotp } from "@/lib/auth/totp";
import { callbacks, merchants, users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { listWithdrawalLimits } from "@/lib/limits/list-withdrawal-limits";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { hashPassword } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { type CreateWithdrawalInput, createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { decideWithdrawal } from "@/lib/withdrawals/decide-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { handlers, pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
// What the BTC network fee (registry) adds to each withdrawal's debit.
const BTC_NETWORK_FEE = parseDecimal("0.00002");

let counter = 0;
function request(overrides: Record<string, unknown> = {}) {
  counter++;
  return withdrawalRequest.parse({
    currency: "BTC",
    amount: "0.01",
    address: BTC_ADDRESS,
    foreign_id: `approval-${counter}-${Math.random().toString(36).slice(2)}`,
    end_user_reference: `payee-${counter}`,
    sender_type: "legal",
    sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
    receiver_type: "self",
    ...overrides,
  });
}

describe(`withdrawal limits and approvals on ${testDriver}`, () => {
  let database: TestDatabase;

  /** A merchant with 1 BTC, a callback URL, limits in BTC, and three users: the owner and two others. */
  async function team(name: string, limits: { perWithdrawal: string; perDay?: string }) {
    const merchantId = await createTestMerchant(database, name);
    await database.db
      .update(merchants)
      .set({ callbackUrl: "https://merchant.example/callbacks" })
      .where(eq(merchants.id, merchantId));
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
    await setWithdrawalLimits(database.db, { merchantId, currency: "BTC", ...limits });
    const [owner] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.merchantId, merchantId));
    const others = await database.db
      .insert(users)
      .values(
        ["finance", "cfo"].map((role) => ({
          merchantId,
          email: `${role}@${name.toLowerCase()}.example`,
          passwordHash: "unused",
        })),
      )
      .returning({ id: users.id });
    const balance = async () =>
      (await listBalances(database.db, merchantId)).find((b) => b.currency === "BTC")!.balance;
    const withdraw = (overrides: Record<string, unknown> = {}, extra: Partial<CreateWithdrawalInput> = {}) =>
      createWithdrawal(database.db, {
        ...withdrawalInput(merchantId, request(overrides), pricing),
        ...extra,
      });
    const events = async (transactionId: number) =>
      (
        await database.db
          .select({ event: callbacks.event, body: callbacks.body })
          .from(callbacks)
          .where(and(eq(callbacks.merchantId, merchantId), eq(callbacks.transactionId, transactionId)))
          .orderBy(asc(callbacks.id))
      ).map((row) => ({ event: row.event, status: JSON.parse(row.body).status as string }));
    return { merchantId, ownerId: owner!.id, otherIds: others.map((u) => u.id), balance, withdraw, events };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("holds a withdrawal over the per-withdrawal limit as pending, with the funds reserved and a pending callback", async () => {
    const t = await team("Holds", { perWithdrawal: "0.05" });
    expect(await listWithdrawalLimits(database.db, t.merchantId)).toEqual([
      { currency: "BTC", per_withdrawal: "0.05000000", per_day: null },
    ]);
    const within = await t.withdraw({ amount: "0.05" });
    expect(within.status).toBe("processing");
    const before = await t.balance();
    const over = await t.withdraw({ amount: "0.06" });
    expect(over.status).toBe("pending");
    // Reserved at once: amount plus the network fee, as any accepted withdrawal.
    expect(await t.balance()).toBe(before - parseDecimal("0.06") - BTC_NETWORK_FEE);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
    const info = await describeTransaction(database.db, over.id);
    expect(info).toMatchObject({
      status: "pending",
      currency_sent: { currency: "BTC", amount: "0.06000000" },
    });
    expect(await t.events(over.id)).toEqual([{ event: "withdrawal.pending", status: "pending" }]);
    // Nothing is sent while it waits.
    await runDueJobs(database.db, handlers);
    expect((await describeTransaction(database.db, over.id)).transactions[0]!.txid).toBeNull();
    expect((await describeTransaction(database.db, within.id)).transactions[0]!.txid).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });

  it("lets another user approve a dashboard withdrawal, never its creator; approved, it is sent", async () => {
    const t = await team("Approves", { perWithdrawal: "0.01" });
    const { id, status } = await t.withdraw({ amount: "0.02" }, { createdByUserId: t.ownerId });
    expect(status).toBe("pending");
    const byCreator = await decideWithdrawal(database.db, {
      merchantId: t.merchantId,
      withdrawalId: id,
      userId: t.ownerId,
      decision: "approve",
    }).catch((e: unknown) => e);
    expect(byCreator).toBeInstanceOf(KassaError);
    expect((byCreator as KassaError).status).toBe(403);
    // Another merchant's user cannot even see it.
    const stranger = await team("Stranger", { perWithdrawal: "1" });
    const foreign = await decideWithdrawal(database.db, {
      merchantId: stranger.merchantId,
      withdrawalId: id,
      userId: stranger.ownerId,
      decision: "approve",
    }).catch((e: unknown) => e);
    expect((foreign as KassaError).status).toBe(404);

    const approved = await decideWithdrawal(database.db, {
      merchantId: t.merchantId,
      withdrawalId: id,
      userId: t.otherIds[0]!,
      decision: "approve",
    });
    expect(approved.status).toBe("processing");
    expect(approved.withdrawal.decidedByUserId).toBe(t.otherIds[0]);
    await runDueJobs(database.db, handlers);
    const info = await describeTransaction(database.db, id);
    expect(info.status).toBe("not_confirmed");
    expect(info.transactions[0]!.txid).toMatch(/^[0-9a-f]{64}$/);
    // A decision once made is not made again.
    expect(
      await fieldsOf(
        decideWithdrawal(database.db, {
          merchantId: t.merchantId,
          withdrawalId: id,
          userId: t.otherIds[1]!,
          decision: "decline",
        }),
      ),
    ).toEqual({ id: "This withdrawal needs no decision: it was already approved and is being sent." });
  });

  it("lets any user approve a withdrawal made through the API (it has no creator user)", async () => {
    const t = await team("ApiMade", { perWithdrawal: "0.01" });
    const { id } = await t.withdraw({ amount: "0.02" });
    const approved = await decideWithdrawal(database.db, {
      merchantId: t.merchantId,
      withdrawalId: id,
      userId: t.ownerId,
      decision: "approve",
    });
    expect(approved.status).toBe("processing");
  });

  it("returns the funds of a declined withdrawal by new entries, with a declined callback", async () => {
    const t = await team("Declines", { perWithdrawal: "0.01" });
    const before = await t.balance();
    const { id } = await t.withdraw({ amount: "0.3" }, { createdByUserId: t.ownerId });
    expect(await t.balance()).toBe(before - parseDecimal("0.3") - BTC_NETWORK_FEE);
    const declined = await decideWithdrawal(database.db, {
      merchantId: t.merchantId,
      withdrawalId: id,
      userId: t.otherIds[0]!,
      decision: "decline",
    });
    expect(declined.status).toBe("declined");
    expect(await t.balance()).toBe(before);
    const info = await describeTransaction(database.db, id);
    expect(info).toMatchObject({ status: "declined", error: "Declined by an approver.", fees: [] });
    expect(info).not.toHaveProperty("currency_sent");
    expect(await t.events(id)).toEqual([
      { event: "withdrawal.pending", status: "pending" },
      { event: "withdrawal.declined", status: "declined" },
    ]);
    expect((await ledgerInvariants(database.db)).nonZeroCurrencies).toEqual([]);
    await runDueJobs(database.db, handlers);
    expect((await describeTransaction(database.db, id)).transactions[0]!.txid).toBeNull();
  });

  it("counts the day's withdrawals against the per-day limit, concurrent ones included", async () => {
    const t = await team("Daily", { perWithdrawal: "0.05", perDay: "0.1" });
    // Six of 0.03 at once: 0.09 fits in the day, so exactly three go out, whatever the interleaving.
    const results = await Promise.all(Array.from({ length: 6 }, () => t.withdraw({ amount: "0.03" })));
    expect(results.filter((r) => r.status === "processing")).toHaveLength(3);
    expect(results.filter((r) => r.status === "pending")).toHaveLength(3);
    // 0.01 still fits (0.1 exactly); then even the smallest BTC withdrawal (0.0005) does not.
    expect((await t.withdraw({ amount: "0.01" })).status).toBe("processing");
    expect((await t.withdraw({ amount: "0.0005" })).status).toBe("pending");
    // Pending ones hold their funds too.
    expect(await t.balance()).toBe(parseDecimal("1") - parseDecimal("0.1905") - 8n * BTC_NETWORK_FEE);
  });

  it("declines a pending withdrawal whose approval time ran out, by the injectable clock", async () => {
    const t = await team("Expires", { perWithdrawal: "0.01" });
    const clock = testClock();
    const before = await t.balance();
    const { id } = await t.withdraw({ amount: "0.02" }, { clock, approvalSeconds: 3600 });
    await runDueJobs(database.db, handlers, { clock });
    expect((await describeTransaction(database.db, id)).status).toBe("pending");
    clock.advance(3601);
    // Too late to approve, even before the expiry job ran.
    expect(
      await fieldsOf(
        decideWithdrawal(database.db, {
          merchantId: t.merchantId,
          withdrawalId: id,
          userId: t.ownerId,
          decision: "approve",
          clock,
        }),
      ),
    ).toEqual({ id: "This withdrawal's approval time ran out; it is being declined." });
    await runDueJobs(database.db, handlers, { clock });
    const info = await describeTransaction(database.db, id);
    expect(info).toMatchObject({ status: "declined", error: "Expired: nobody approved it in time." });
    expect(await t.balance()).toBe(before);
    expect((await t.events(id)).map((e) => e.event)).toEqual(["withdrawal.pending", "withdrawal.declined"]);
    expect((await ledgerInvariants(database.db)).nonZeroCurrencies).toEqual([]);
  });

  it("resolves an approval and a decline racing, and two approvers, exactly once", async () => {
    const t = await team("Races", { perWithdrawal: "0.01" });
    const before = await t.balance();
    for (const decisions of [
      ["approve", "decline"],
      ["approve", "approve"],
      ["decline", "decline"],
    ] as const) {
      const { id } = await t.withdraw({ amount: "0.02" });
      const outcomes = await Promise.allSettled(
        decisions.map((decision, i) =>
          decideWithdrawal(database.db, {
            merchantId: t.merchantId,
            withdrawalId: id,
            userId: t.otherIds[i]!,
            decision,
          }),
        ),
      );
      const won = outcomes.filter((o) => o.status === "fulfilled");
      expect(won).toHaveLength(1);
      const lost = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect((lost.reason as KassaError).status).toBe(400);
      const final = (won[0] as PromiseFulfilledResult<{ status: string }>).value.status;
      const events = (await t.events(id)).map((e) => e.event);
      expect(events).toEqual(
        final === "declined" ? ["withdrawal.pending", "withdrawal.declined"] : ["withdrawal.pending"],
      );
    }
    // The second pair approved and the third declined; the first pair either way: the balance agrees.
    const spent = before - (await t.balance());
    const perWithdrawal = parseDecimal("0.02") + BTC_NETWORK_FEE;
    expect([perWithdrawal, 2n * perWithdrawal]).toContain(spent);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  it("asks for the second factor: the app's code once it is on (each code once), the password otherwise", async () => {
    const t = await team("Factors", { perWithdrawal: "1" });
    const [finance, cfo] = t.otherIds as [number, number];
    await database.db
      .update(users)
      .set({ passwordHash: await hashPassword("finance password 1") })
      .where(eq(users.id, finance));
    const check = (userId: number, factor: { code?: string; password?: string }) =>
      fieldsOf(verifySecondFactor(database.db, database.box, { userId, ...factor }));
    expect(await check(finance, {})).toEqual({ password: "Type your password to confirm." });
    expect(await check(finance, { password: "wrong password 1" })).toEqual({
      password: "The password is not right.",
    });
    await expect(
      verifySecondFactor(database.db, database.box, { userId: finance, password: "finance password 1" }),
    ).resolves.toBeUndefined();

    const secret = generateSecret();
    // One moment for the codes below: read twice, the clock could cross into the next 30 s step
    // between the two, and a new step's code is rightly not spent.
    const epoch = Math.floor(Date.now() / 1000);
    await enableTotp(database.db, database.box, {
      userId: cfo,
      secret,
      code: await generate({ secret, epoch }),
    });
    // With the app on, the password alone is not enough, and the code that turned it on is spent.
    expect(await check(cfo, { password: "long password 1" })).toEqual({
      code: "Type the code from your authenticator app.",
    });
    expect(Object.keys(await check(cfo, { code: await generate({ secret, epoch }) }))).toEqual(["code"]);
    const next = await generate({ secret, epoch: epoch + 30 });
    await expect(
      verifySecondFactor(database.db, database.box, { userId: cfo, code: next }),
    ).resolves.toBeUndefined();
    expect(Object.keys(await check(cfo, { code: next }))).toEqual(["code"]);
  });

  it("refuses limits that are not amounts, or a daily limit under the per-withdrawal one", async () => {
    const merchantId = await createTestMerchant(database, "BadLimits");
    expect(
      await fieldsOf(setWithdrawalLimits(database.db, { merchantId, currency: "BTC", perWithdrawal: "-1" })),
    ).toHaveProperty("per_withdrawal");
    expect(
      await fieldsOf(
        setWithdrawalLimits(database.db, { merchantId, currency: "BTC", perWithdrawal: "1", perDay: "0.5" }),
      ),
    ).toEqual({ per_day: "The daily limit cannot be below the limit per withdrawal." });
    expect(
      await fieldsOf(setWithdrawalLimits(database.db, { merchantId, currency: "NOPE", perWithdrawal: "1" })),
    ).toEqual({ currency: "Unknown currency NOPE." });
  });
});
