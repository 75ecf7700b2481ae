import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import { auditEntries, authTokens, users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { changeMemberRole } from "@/lib/team/change-member-role";
import { inviteMember } from "@/lib/team/invite-member";
import { removeMember } from "@/lib/team/remove-member";
import { resendInvitation } from "@/lib/team/resend-invitation";
import { revokeInvitation } from "@/lib/team/revoke-invitation";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant } from "../support/merchants";
import { addMembers, lockWaiters, ownersOf, sessionOf, watchDeadlocks } from "../support/team-races";
import { waitUntil } from "../support/wait";

process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");

const audit = (userId: number): AuditSource => ({
  actor: { kind: "user", userId, email: `user-${userId}@example.com` },
  address: "198.51.100.7",
});

/** What a settled team change came to: done, or the status of the client error it answered. */
function outcome(settled: PromiseSettledResult<unknown>): "done" | number {
  if (settled.status === "fulfilled") return "done";
  // Anything but a KassaError would reach the dashboard as a 500: the test shows it as it is.
  if (!(settled.reason instanceof KassaError)) throw settled.reason;
  return settled.reason.status;
}

describe(`team changes racing each other on ${testDriver}`, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  /** A merchant whose first owner signed up, plus `roles` added: every member's id, signup owner first. */
  async function team(name: string, roles: Parameters<typeof addMembers>[1]["roles"]) {
    const merchantId = await createTestMerchant(database, name);
    const [first] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.merchantId, merchantId));
    const added = await addMembers(database, { merchantId, prefix: name.toLowerCase(), roles });
    return { merchantId, ids: [first!.id, ...added] };
  }

  /** The invitation links the given members sent that still work. */
  const invitationsBy = async (senders: number[]) =>
    (
      await database.db
        .select({ invitedBy: authTokens.invitedBy })
        .from(authTokens)
        .where(and(eq(authTokens.purpose, "invitation"), inArray(authTokens.invitedBy, senders)))
    ).map((row) => row.invitedBy);

  it("lets every owner step down at once: all but one do, one owner stays, no deadlock", async () => {
    const { merchantId, ids } = await team("Stepdown", ["owner", "owner", "owner", "owner", "owner"]);
    const sessions = await Promise.all(ids.map((id) => sessionOf(database.db, id)));
    const watch = watchDeadlocks(database.db);
    const settled = await Promise.allSettled(
      ids.map((id) =>
        changeMemberRole(watch.db, { merchantId, userId: id, role: "admin", actorId: id, audit: audit(id) }),
      ),
    );
    const outcomes = settled.map(outcome);
    expect(outcomes.filter((o) => o === "done")).toHaveLength(ids.length - 1);
    expect(outcomes.filter((o) => o !== "done")).toEqual([400]);
    const refused = settled.find((s) => s.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as KassaError).message).toMatch(/at least one owner/);
    const stayed = ids[outcomes.indexOf(400)]!;
    expect(await ownersOf(database.db, merchantId)).toEqual([stayed]);
    // Everyone who stepped down signs in again (their role changed); the one who stayed keeps theirs.
    for (const [i, id] of ids.entries())
      if (id === stayed) expect(await sessions[i]!()).toMatchObject({ userId: id, role: "owner" });
      else expect(await sessions[i]!()).toBeUndefined();
    expect(watch.deadlocks()).toBe(0);
  });

  it("lets pairs of owners remove each other at once: one of each pair goes, sessions end, no deadlock", async () => {
    const { merchantId, ids } = await team("Pairs", [
      "owner",
      "owner",
      "owner",
      "owner",
      "owner",
      "developer",
    ]);
    const owners = ids.slice(0, 6);
    const developer = ids[6]!;
    const sessions = new Map(
      await Promise.all(ids.map(async (id) => [id, await sessionOf(database.db, id)] as const)),
    );
    const watch = watchDeadlocks(database.db);
    const removals = owners.map((id, i) => ({ actorId: id, userId: owners[i % 2 === 0 ? i + 1 : i - 1]! }));
    const settled = await Promise.allSettled([
      ...removals.map((r) => removeMember(watch.db, { merchantId, ...r, audit: audit(r.actorId) })),
      // The last owner of a pair changing a role while the other removes them.
      changeMemberRole(watch.db, {
        merchantId,
        userId: developer,
        role: "finance",
        actorId: owners[5]!,
        audit: audit(owners[5]!),
      }),
    ]);
    const outcomes = settled.map(outcome);
    // In each pair the one who went first removed the other, who was then no longer a member (403).
    for (let pair = 0; pair < 3; pair++)
      expect(outcomes.slice(pair * 2, pair * 2 + 2).sort()).toEqual([403, "done"]);
    const remaining = await ownersOf(database.db, merchantId);
    expect(remaining).toHaveLength(3);
    const removed = owners.filter((id) => !remaining.includes(id));
    for (const id of removed) expect(await sessions.get(id)!()).toBeUndefined();
    for (const id of remaining)
      expect(await sessions.get(id)!()).toMatchObject({ userId: id, role: "owner" });

    // The role change and its actor's removal: either the change came first, or it was refused.
    const trail = (
      await database.db
        .select({ action: auditEntries.action, actor: auditEntries.actor })
        .from(auditEntries)
        .where(and(eq(auditEntries.merchantId, merchantId)))
        .orderBy(asc(auditEntries.id))
    ).filter((entry) => entry.action === "role_changed" || entry.action === "member_removed");
    const [developerNow] = await database.db.select().from(users).where(eq(users.id, developer));
    if (outcomes[6] === "done") {
      expect(developerNow!.role).toBe("finance");
      expect(await sessions.get(developer)!()).toBeUndefined();
      const changedAt = trail.findIndex((entry) => entry.action === "role_changed");
      const actorRemovedAt = trail.findIndex(
        (entry) => entry.action === "member_removed" && entry.actor === `user-${owners[4]}@example.com`,
      );
      if (removed.includes(owners[5]!)) expect(changedAt).toBeLessThan(actorRemovedAt);
    } else {
      expect(outcomes[6]).toBe(403);
      expect(removed).toContain(owners[5]);
      expect(developerNow!.role).toBe("developer");
      expect(await sessions.get(developer)!()).toMatchObject({ role: "developer" });
    }
    expect(watch.deadlocks()).toBe(0);
  });

  it("refuses an invitation from a member removed or demoted after their session check", async () => {
    const { merchantId, ids } = await team("Inviters", ["admin", "admin", "owner"]);
    const [owner, removed, demoted, formerOwner] = ids as [number, number, number, number];
    await removeMember(database.db, { merchantId, userId: removed, actorId: owner, audit: audit(owner) });
    await changeMemberRole(database.db, {
      merchantId,
      userId: demoted,
      role: "finance",
      actorId: owner,
      audit: audit(owner),
    });
    await changeMemberRole(database.db, {
      merchantId,
      userId: formerOwner,
      role: "admin",
      actorId: owner,
      audit: audit(owner),
    });
    // Each request passed the session check with the role it had then.
    const cases = [
      {
        inviter: removed,
        was: "admin" as const,
        role: "viewer" as const,
        message: "You are no longer a member of this team.",
      },
      {
        inviter: demoted,
        was: "admin" as const,
        role: "viewer" as const,
        message: "Your role (finance) does not allow this. Ask an owner or an admin of your team.",
      },
      {
        inviter: formerOwner,
        was: "owner" as const,
        role: "owner" as const,
        message: "Only an owner can invite, change or remove an owner.",
      },
    ];
    for (const { inviter, was, role, message } of cases)
      await expect(
        inviteMember(database.db, {
          box: database.box,
          merchantId,
          inviter: { userId: inviter, email: `user-${inviter}@example.com`, role: was },
          email: `invitee-of-${inviter}@example.com`,
          role,
          baseUrl: "https://pay.example.test",
          audit: audit(inviter),
        }),
      ).rejects.toMatchObject({ status: 403, message });
    expect(await invitationsBy(cases.map((c) => c.inviter))).toEqual([]);
    // Nor do they send again an invitation someone else made (the new link would carry their name).
    await inviteMember(database.db, {
      box: database.box,
      merchantId,
      inviter: { userId: owner, email: `user-${owner}@example.com`, role: "owner" },
      email: "pending@example.com",
      role: "viewer",
      baseUrl: "https://pay.example.test",
      audit: audit(owner),
    });
    const [pending] = await database.db
      .select({ id: authTokens.tokenHash })
      .from(authTokens)
      .where(and(eq(authTokens.purpose, "invitation"), eq(authTokens.email, "pending@example.com")));
    await expect(
      resendInvitation(database.db, {
        box: database.box,
        merchantId,
        id: pending!.id,
        inviter: { userId: removed, email: `user-${removed}@example.com`, role: "admin" },
        baseUrl: "https://pay.example.test",
        audit: audit(removed),
      }),
    ).rejects.toMatchObject({ status: 403, message: "You are no longer a member of this team." });
    // Nor take it back; and an owner's invitation is beyond one who is an admin now.
    for (const [actorId, message] of [
      [removed, "You are no longer a member of this team."],
      [formerOwner, "Only an owner can invite, change or remove an owner."],
    ] as const) {
      const ownerInvitation = actorId === formerOwner;
      if (ownerInvitation)
        await inviteMember(database.db, {
          box: database.box,
          merchantId,
          inviter: { userId: owner, email: `user-${owner}@example.com`, role: "owner" },
          email: "future-owner@example.com",
          role: "owner",
          baseUrl: "https://pay.example.test",
          audit: audit(owner),
        });
      const [target] = await database.db
        .select({ id: authTokens.tokenHash })
        .from(authTokens)
        .where(
          and(
            eq(authTokens.purpose, "invitation"),
            eq(authTokens.email, ownerInvitation ? "future-owner@example.com" : "pending@example.com"),
          ),
        );
      await expect(
        revokeInvitation(database.db, { merchantId, id: target!.id, actorId, audit: audit(actorId) }),
      ).rejects.toMatchObject({ status: 403, message });
    }
    expect(await invitationsBy([owner])).toEqual([owner, owner]);
  });

  it("never leaves an invitation from a member whose removal raced it", async () => {
    const { merchantId, ids } = await team("InviteRace", ["admin", "admin", "admin", "admin"]);
    const [owner, ...admins] = ids as [number, ...number[]];
    const watch = watchDeadlocks(database.db);
    const settled = await Promise.allSettled(
      admins.flatMap((admin) => [
        inviteMember(watch.db, {
          box: database.box,
          merchantId,
          inviter: { userId: admin, email: `user-${admin}@example.com`, role: "admin" },
          email: `raced-by-${admin}@example.com`,
          role: "finance",
          baseUrl: "https://pay.example.test",
          audit: audit(admin),
        }),
        removeMember(watch.db, { merchantId, userId: admin, actorId: owner, audit: audit(owner) }),
      ]),
    );
    // Every removal went through; each invitation either came first (and died with its sender) or was refused.
    for (const [i, s] of settled.entries())
      if (i % 2 === 1) expect(s.status).toBe("fulfilled");
      else if (s.status === "rejected") expect(outcome(s)).toBe(403);
    expect(await invitationsBy(admins)).toEqual([]);
    expect(watch.deadlocks()).toBe(0);
  });

  if (testDriver === "pg") {
    it("queues two removals held up by a third owner's change instead of deadlocking them", async () => {
      // ids[0] is the signup owner, the lowest id: another change of theirs holds their row while
      // two owners each remove another, so both wait with whatever they locked before.
      const { merchantId, ids } = await team("Queue", ["owner", "owner", "owner", "owner"]);
      const [held, a, b, c, d] = ids as [number, number, number, number, number];
      const watch = watchDeadlocks(database.db);
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = database.db.transaction(async (tx) => {
        await tx.select().from(users).where(eq(users.id, held)).for("update");
        locked();
        await released;
      });
      await isLocked;
      const removals = Promise.allSettled([
        removeMember(watch.db, { merchantId, actorId: a, userId: b, audit: audit(a) }),
        removeMember(watch.db, { merchantId, actorId: c, userId: d, audit: audit(c) }),
      ]);
      await waitUntil(async () => (await lockWaiters(database.db)) >= 2, {
        what: "both removals wait for the held owner's row",
      });
      release();
      await holder;
      expect((await removals).map(outcome)).toEqual(["done", "done"]);
      expect(await ownersOf(database.db, merchantId)).toEqual([held, a, c]);
      expect(watch.deadlocks()).toBe(0);
    });
  }
});
