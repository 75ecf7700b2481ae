import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import { auditEntries, callbacks, journals, merchants, users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { changeMemberRole } from "@/lib/team/change-member-role";
import { removeMember } from "@/lib/team/remove-member";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { decideWithdrawal } from "@/lib/withdrawals/decide-withdrawal";
import { expireWithdrawalApproval } from "@/lib/withdrawals/expire-withdrawal-approval";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";
import { addMembers, sessionOf, watchDeadlocks } from "../support/team-races";

process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");

// What the BTC network fee (registry) adds to each withdrawal's debit.
const BTC_NETWORK_FEE = parseDecimal("0.00002");
const audit = (userId: number): AuditSource => ({
  actor: { kind: "user", userId, email: `user-${userId}@example.com` },
  address: "198.51.100.8",
});

describe(`withdrawal approvals racing each other and team changes on ${testDriver}`, () => {
  let database: TestDatabase;
  let counter = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  /** A merchant with 1 BTC, a callback URL, a 0.01 BTC approval limit, its signup owner and `roles`. */
  async function team(name: string, roles: Parameters<typeof addMembers>[1]["roles"]) {
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
    await setWithdrawalLimits(database.db, { merchantId, currency: "BTC", perWithdrawal: "0.01" });
    const [owner] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.merchantId, merchantId));
    const members = await addMembers(database, { merchantId, prefix: name.toLowerCase(), roles });
    const balance = async () =>
      (await listBalances(database.db, merchantId)).find((b) => b.currency === "BTC")!.balance;
    /** A pending withdrawal of 0.02 BTC asked for by the owner in the dashboard. */
    const withdraw = async (clock = testClock()) => {
      counter++;
      const request = withdrawalRequest.parse({
        currency: "BTC",
        amount: "0.02",
        address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
        foreign_id: `race-${counter}-${randomBytes(4).toString("hex")}`,
        end_user_reference: `payee-${counter}`,
        sender_type: "legal",
        sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
        receiver_type: "self",
      });
      const created = await createWithdrawal(database.db, {
        ...withdrawalInput(merchantId, request, pricing),
        createdByUserId: owner!.id,
        approvalSeconds: 3600,
        clock,
      });
      expect(created.status).toBe("pending");
      return created.id;
    };
    return { merchantId, ownerId: owner!.id, members, balance, withdraw };
  }

  const eventsOf = async (transactionId: number) =>
    (
      await database.db
        .select({ event: callbacks.event })
        .from(callbacks)
        .where(eq(callbacks.transactionId, transactionId))
        .orderBy(asc(callbacks.id))
    ).map((row) => row.event);
  const journalsOf = async (transactionId: number) =>
    (
      await database.db
        .select({ kind: journals.kind })
        .from(journals)
        .where(eq(journals.transactionId, transactionId))
        .orderBy(asc(journals.id))
    ).map((row) => row.kind);

  it("settles approve, decline, the creator's approval and the expiry job racing with exactly one outcome", async () => {
    const t = await team("Threeway", ["finance", "admin"]);
    const [finance, admin] = t.members as [number, number];
    const before = await t.balance();
    const watch = watchDeadlocks(database.db);
    let declined = 0;
    for (let round = 0; round < 6; round++) {
      const clock = testClock();
      const id = await t.withdraw(clock);
      // The deciders' requests came just before the approval time ran out, the expiry job just after.
      const late = testClock();
      late.advance(3601);
      const settled = await Promise.allSettled([
        decideWithdrawal(watch.db, {
          merchantId: t.merchantId,
          withdrawalId: id,
          userId: finance,
          decision: "approve",
          clock,
          audit: audit(finance),
        }),
        decideWithdrawal(watch.db, {
          merchantId: t.merchantId,
          withdrawalId: id,
          userId: admin,
          decision: "decline",
          clock,
          audit: audit(admin),
        }),
        decideWithdrawal(watch.db, {
          merchantId: t.merchantId,
          withdrawalId: id,
          userId: t.ownerId,
          decision: "approve",
          clock,
        }),
        expireWithdrawalApproval(watch.db, { withdrawalId: id, clock: late }),
      ]);
      const [approve, decline, byCreator, expiry] = settled;
      // The creator never decides: refused as the creator (403), or told someone decided first (400).
      expect(byCreator.status).toBe("rejected");
      expect((byCreator as PromiseRejectedResult).reason).toBeInstanceOf(KassaError);
      expect([400, 403]).toContain(((byCreator as PromiseRejectedResult).reason as KassaError).status);
      const won = [
        approve.status === "fulfilled" && "approved",
        decline.status === "fulfilled" && "declined",
        expiry.status === "fulfilled" && expiry.value === true && "expired",
      ].filter(Boolean);
      expect(won).toHaveLength(1);
      for (const lost of [approve, decline])
        if (lost.status === "rejected") {
          expect(lost.reason).toBeInstanceOf(KassaError);
          expect((lost.reason as KassaError).status).toBe(400);
        }
      if (expiry.status === "rejected") throw expiry.reason;
      const status = (await describeTransaction(database.db, id)).status;
      if (won[0] === "approved") {
        expect((approve as PromiseFulfilledResult<{ status: string }>).value.status).toBe("processing");
        // Approved, on its way out: the public status says so until the network confirms it.
        expect(status).toBe("not_confirmed");
        expect(await journalsOf(id)).toHaveLength(1);
        expect(await eventsOf(id)).toEqual(["withdrawal.pending"]);
      } else {
        declined++;
        expect(status).toBe("declined");
        // The reservation and one return of the funds; one declined callback.
        expect(await journalsOf(id)).toEqual([expect.any(String), "withdrawal_refund"]);
        expect(await eventsOf(id)).toEqual(["withdrawal.pending", "withdrawal.declined"]);
      }
    }
    const perWithdrawal = parseDecimal("0.02") + BTC_NETWORK_FEE;
    expect(before - (await t.balance())).toBe(BigInt(6 - declined) * perWithdrawal);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
    expect(watch.deadlocks()).toBe(0);
  });

  it("refuses a decision by a member removed or demoted after their request's session check", async () => {
    const t = await team("Gone", ["finance", "finance"]);
    const [removed, demoted] = t.members as [number, number];
    const id = await t.withdraw();
    // Both sessions stood when the requests began (withSession), then the team changed.
    const sessions = [await sessionOf(database.db, removed), await sessionOf(database.db, demoted)];
    for (const session of sessions) expect(await session()).toBeDefined();
    await removeMember(database.db, {
      merchantId: t.merchantId,
      userId: removed,
      actorId: t.ownerId,
      audit: audit(t.ownerId),
    });
    await changeMemberRole(database.db, {
      merchantId: t.merchantId,
      userId: demoted,
      role: "viewer",
      actorId: t.ownerId,
      audit: audit(t.ownerId),
    });
    for (const [userId, message] of [
      [removed, "You are no longer a member of this team."],
      [demoted, "Your role (viewer) does not allow this. Ask an owner or an admin of your team."],
    ] as const)
      await expect(
        decideWithdrawal(database.db, {
          merchantId: t.merchantId,
          withdrawalId: id,
          userId,
          decision: "approve",
        }),
      ).rejects.toMatchObject({ status: 403, message });
    for (const session of sessions) expect(await session()).toBeUndefined();
    expect((await describeTransaction(database.db, id)).status).toBe("pending");
    expect(await eventsOf(id)).toEqual(["withdrawal.pending"]);
  });

  it("orders an approval and its approver's removal racing: approved before the removal, or refused", async () => {
    const t = await team("Removal", ["finance", "finance", "finance", "finance"]);
    const watch = watchDeadlocks(database.db);
    for (const approver of t.members) {
      const id = await t.withdraw();
      const [decision, removal] = await Promise.allSettled([
        decideWithdrawal(watch.db, {
          merchantId: t.merchantId,
          withdrawalId: id,
          userId: approver,
          decision: "approve",
          audit: audit(approver),
        }),
        removeMember(watch.db, {
          merchantId: t.merchantId,
          userId: approver,
          actorId: t.ownerId,
          audit: audit(t.ownerId),
        }),
      ]);
      expect(removal.status).toBe("fulfilled");
      const trail = (
        await database.db
          .select({ action: auditEntries.action, detail: auditEntries.detail })
          .from(auditEntries)
          .where(and(eq(auditEntries.merchantId, t.merchantId)))
          .orderBy(asc(auditEntries.id))
      ).map((entry) => entry.action);
      if (decision.status === "fulfilled") {
        expect(decision.value.status).toBe("processing");
        expect(trail.slice(-2)).toEqual(["payout_approved", "member_removed"]);
      } else {
        expect(decision.reason).toMatchObject({ status: 403 });
        expect(trail.at(-1)).toBe("member_removed");
        expect((await describeTransaction(database.db, id)).status).toBe("pending");
      }
    }
    expect(watch.deadlocks()).toBe(0);
  });
});
