import { and, eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import { AUTH_TOKEN_SECONDS } from "@/lib/auth/issue-auth-token";
import { readRequestSession } from "@/lib/auth/read-request-session";
import { SignInError, verifySignIn } from "@/lib/auth/verify-sign-in";
import { auditEntries, authTokens, emails, merchants, users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { sendQueuedEmail } from "@/lib/mail/send-email";
import { acceptInvitation } from "@/lib/team/accept-invitation";
import { changeMemberRole } from "@/lib/team/change-member-role";
import { type Inviter, inviteMember } from "@/lib/team/invite-member";
import { listTeam } from "@/lib/team/list-team";
import type { Role } from "@/lib/team/permissions";
import { removeMember } from "@/lib/team/remove-member";
import { resendInvitation } from "@/lib/team/resend-invitation";
import { revokeInvitation } from "@/lib/team/revoke-invitation";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { linkToken, mailText } from "../support/mail-text";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { startSmtpServer } from "../support/smtp";

const BASE = "https://pay.example.test";
process.env.NEXTAUTH_SECRET = "a session secret for the team test only";

describe(`team invitations, roles and removal on ${testDriver}`, () => {
  let database: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let merchantId: number;
  let owner: Inviter;
  const audit = (who: Inviter): AuditSource => ({
    actor: { kind: "user", userId: who.userId, email: who.email },
    address: "198.51.100.9",
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpServer();
    merchantId = await createTestMerchant(database, "Teamshop");
    const [user] = await database.db.select().from(users).where(eq(users.merchantId, merchantId));
    owner = { userId: user!.id, email: user!.email, role: user!.role };
  });
  afterAll(async () => {
    await smtp.close();
    await database.drop();
  });

  /** Sends every queued message through the real SMTP server, as the e-mail job does. */
  async function deliver(): Promise<void> {
    const queued = await database.db
      .select({ id: emails.id })
      .from(emails)
      .where(eq(emails.status, "queued"));
    for (const { id } of queued)
      await sendQueuedEmail(database.db, id, {
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        box: database.box,
        from: "k@kassa.test",
      });
  }
  const lastMailTo = (address: string) => smtp.received.filter((mail) => mail.to === address).at(-1)!;
  const invite = (email: string, role: Role, by: Inviter = owner, clock = testClock()) =>
    inviteMember(database.db, {
      box: database.box,
      merchantId,
      inviter: by,
      email,
      role,
      baseUrl: BASE,
      audit: audit(by),
      clock,
    });
  const signIn = (email: string, password: string) =>
    verifySignIn(database.db, database.box, { email, password, ip: "203.0.113.77" });
  const actions = async () =>
    (
      await database.db
        .select({ action: auditEntries.action, detail: auditEntries.detail, actor: auditEntries.actor })
        .from(auditEntries)
        .where(eq(auditEntries.merchantId, merchantId))
        .orderBy(auditEntries.id)
    ).filter((entry) => !entry.action.startsWith("sign_in"));
  /** Joins `email` with `role` through the mailed link and returns the new member. */
  async function join(email: string, role: Role, by: Inviter = owner): Promise<Inviter> {
    await invite(email, role, by);
    await deliver();
    await acceptInvitation(database.db, {
      token: linkToken(lastMailTo(email)),
      password: "invitee password 1",
    });
    const signedIn = await signIn(email, "invitee password 1");
    return { userId: signedIn.userId, email, role: signedIn.role };
  }
  /** A session cookie of the member as next-auth issues it at sign-in, read back as a route handler reads it. */
  async function sessionOf(member: Inviter) {
    const [user] = await database.db.select().from(users).where(eq(users.id, member.userId));
    const token = {
      sub: String(user!.id),
      email: user!.email,
      merchantId,
      sessionVersion: user!.sessionVersion,
    };
    const cookie = await encode({ token, secret: process.env.NEXTAUTH_SECRET! });
    return () =>
      readRequestSession(
        database.db,
        new Request(`${BASE}/api/dashboard/balances`, {
          headers: { cookie: `next-auth.session-token=${cookie}` },
        }),
      );
  }

  it("mails a single-use link; the invitee sets a password and joins this merchant with the invited role", async () => {
    await invite("Fin@Example.com", "finance");
    await deliver();
    const mail = lastMailTo("fin@example.com");
    const text = mailText(mail);
    expect(text).toContain("Subject: You are invited to Teamshop on Kassa");
    expect(text).toContain(`${owner.email} invited you to join Teamshop`);
    expect(text).toContain("as finance");
    expect(text).toContain(`within ${AUTH_TOKEN_SECONDS.invitation / 86_400} days`);
    const token = linkToken(mail);
    expect(text).toContain(`${BASE}/join#token=${token}`);
    // Only the hash is stored, and the message is not in the merchant's outbox for another member to read.
    const [stored] = await database.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.email, "fin@example.com"));
    expect(stored).toMatchObject({
      purpose: "invitation",
      merchantId,
      role: "finance",
      invitedBy: owner.userId,
    });
    expect(stored!.tokenHash).not.toContain(token);
    const [queued] = await database.db.select().from(emails).where(eq(emails.recipient, "fin@example.com"));
    expect(queued!.merchantId).toBeNull();
    expect((await listTeam(database.db, { merchantId })).invitations).toMatchObject([
      { email: "fin@example.com", role: "finance", invitedBy: owner.email },
    ]);

    expect(await acceptInvitation(database.db, { token, password: "invitee password 1" })).toEqual({
      merchantId,
      email: "fin@example.com",
    });
    const member = await signIn("fin@example.com", "invitee password 1");
    expect(member).toMatchObject({ merchantId, role: "finance" });
    const team = await listTeam(database.db, { merchantId });
    expect(team.members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, "owner"],
      ["fin@example.com", "finance"],
    ]);
    expect(team.invitations).toEqual([]);

    // Single use: the link does nothing a second time.
    expect(await fieldsOf(acceptInvitation(database.db, { token, password: "another password 1" }))).toEqual({
      token: "This invitation has expired, was revoked or was already used. Ask the team for a new one.",
    });
    expect(await actions()).toEqual([
      { action: "member_invited", detail: "fin@example.com as finance", actor: owner.email },
      { action: "member_joined", detail: "as finance", actor: "fin@example.com" },
    ]);
  });

  it("lets the link expire after a week (the injectable clock), and refuses it then", async () => {
    const clock = testClock();
    await invite("late@example.com", "viewer", owner, clock);
    await deliver();
    const token = linkToken(lastMailTo("late@example.com"));
    clock.advance(AUTH_TOKEN_SECONDS.invitation - 60);
    expect(await listTeam(database.db, { merchantId, clock })).toMatchObject({
      invitations: [{ email: "late@example.com" }],
    });
    clock.advance(120);
    expect((await listTeam(database.db, { merchantId, clock })).invitations).toEqual([]);
    expect(
      await fieldsOf(acceptInvitation(database.db, { token, password: "invitee password 1", clock })),
    ).toHaveProperty("token");
    const joined = await database.db.select().from(users).where(eq(users.email, "late@example.com"));
    expect(joined).toEqual([]);
  });

  it("resends with a new link (the old one dies) and revokes (the link dies), each in the audit trail", async () => {
    await invite("again@example.com", "developer");
    await deliver();
    const first = linkToken(lastMailTo("again@example.com"));
    const [pending] = (await listTeam(database.db, { merchantId })).invitations.filter(
      (i) => i.email === "again@example.com",
    );
    await resendInvitation(database.db, {
      box: database.box,
      merchantId,
      id: pending!.id,
      inviter: owner,
      baseUrl: BASE,
      audit: audit(owner),
    });
    await deliver();
    const second = linkToken(lastMailTo("again@example.com"));
    expect(second).not.toBe(first);
    expect(
      await fieldsOf(acceptInvitation(database.db, { token: first, password: "invitee password 1" })),
    ).toHaveProperty("token");

    const [resent] = (await listTeam(database.db, { merchantId })).invitations.filter(
      (i) => i.email === "again@example.com",
    );
    await revokeInvitation(database.db, {
      merchantId,
      id: resent!.id,
      actorId: owner.userId,
      audit: audit(owner),
    });
    expect(
      await fieldsOf(acceptInvitation(database.db, { token: second, password: "invitee password 1" })),
    ).toHaveProperty("token");
    // Another merchant cannot revoke it, and a revoked one is gone.
    await expect(
      revokeInvitation(database.db, {
        merchantId,
        id: resent!.id,
        actorId: owner.userId,
        audit: audit(owner),
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect((await actions()).slice(-3)).toEqual([
      { action: "member_invited", detail: "again@example.com as developer", actor: owner.email },
      { action: "member_invited", detail: "again@example.com as developer (sent again)", actor: owner.email },
      { action: "invitation_revoked", detail: "again@example.com as developer", actor: owner.email },
    ]);
  });

  it("rations invitations per recipient, and a later one replaces the earlier link", async () => {
    for (let i = 0; i < 3; i++) await invite("flood@example.com", "viewer");
    await expect(invite("flood@example.com", "viewer")).rejects.toMatchObject({
      code: "rate_limited",
      status: 429,
    });
    const stored = await database.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.email, "flood@example.com"));
    expect(stored).toHaveLength(1);
  });

  it("rations resends with the recipient's invitations; a resend refused for its role spends nothing", async () => {
    const pendingId = async () =>
      (await listTeam(database.db, { merchantId })).invitations.find(
        (i) => i.email === "co-owner@example.com",
      )!.id;
    const resend = (by: Inviter) =>
      pendingId().then((id) =>
        resendInvitation(database.db, {
          box: database.box,
          merchantId,
          id,
          inviter: by,
          baseUrl: BASE,
          audit: audit(by),
        }),
      );
    const admin = await join("resender@example.com", "admin");
    await invite("co-owner@example.com", "owner");
    for (let i = 0; i < 3; i++)
      await expect(resend(admin)).rejects.toMatchObject({ code: "forbidden", status: 403 });
    // The first invitation and two resends are the recipient's three free e-mails.
    await resend(owner);
    await resend(owner);
    const kept = await pendingId();
    const refused = await resend(owner).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "rate_limited", status: 429 });
    expect((refused as KassaError).message).toMatch(/^Too many e-mails to co-owner@example\.com lately\./);
    expect((refused as KassaError).retryAfterSeconds).toBeGreaterThan(0);
    expect(await pendingId()).toBe(kept);
  });

  it("refuses an address already in the team, and keeps admins from owners", async () => {
    // Refused without a mail, so without spending the member's e-mail ration (three an hour): the
    // fourth refusal is still the membership, not a 429.
    for (let i = 0; i < 4; i++)
      expect(await fieldsOf(invite("FIN@example.com", "viewer"))).toEqual({
        email: "This address is already a member of your team.",
      });
    const admin = await join("admin@example.com", "admin");
    await expect(invite("boss@example.com", "owner", admin)).rejects.toMatchObject({
      code: "forbidden",
      status: 403,
    });
    await expect(
      changeMemberRole(database.db, {
        merchantId,
        userId: owner.userId,
        role: "viewer",
        actorId: admin.userId,
        audit: audit(admin),
      }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      removeMember(database.db, {
        merchantId,
        userId: owner.userId,
        actorId: admin.userId,
        audit: audit(admin),
      }),
    ).rejects.toMatchObject({ code: "forbidden" });
    // An admin does invite and manage everyone else.
    const dev = await join("dev@example.com", "developer", admin);
    await changeMemberRole(database.db, {
      merchantId,
      userId: dev.userId,
      role: "viewer",
      actorId: admin.userId,
      audit: audit(admin),
    });
    const [user] = await database.db.select().from(users).where(eq(users.id, dev.userId));
    expect(user!.role).toBe("viewer");
  });

  it("never demotes or removes the last owner", async () => {
    const refusal = "A team needs at least one owner: make another member an owner first.";
    const demote = changeMemberRole(database.db, {
      merchantId,
      userId: owner.userId,
      role: "admin",
      actorId: owner.userId,
      audit: audit(owner),
    });
    await expect(demote).rejects.toMatchObject({ status: 400, message: refusal });
    const remove = removeMember(database.db, {
      merchantId,
      userId: owner.userId,
      actorId: owner.userId,
      audit: audit(owner),
    });
    await expect(remove).rejects.toBeInstanceOf(KassaError);
    await expect(remove).rejects.toMatchObject({ message: refusal });
    // With a second owner, the first may step down.
    const second = await join("second@example.com", "owner");
    await changeMemberRole(database.db, {
      merchantId,
      userId: owner.userId,
      role: "admin",
      actorId: second.userId,
      audit: audit(second),
    });
    await expect(
      removeMember(database.db, {
        merchantId,
        userId: second.userId,
        actorId: second.userId,
        audit: audit(second),
      }),
    ).rejects.toMatchObject({ message: refusal });
    await changeMemberRole(database.db, {
      merchantId,
      userId: owner.userId,
      role: "owner",
      actorId: second.userId,
      audit: audit(second),
    });
  });

  it("ends the sessions of a member whose role changes, and of a removed one, who can no longer sign in", async () => {
    const member = await join("moving@example.com", "developer");
    const session = await sessionOf(member);
    expect(await session()).toMatchObject({ merchantId, userId: member.userId, role: "developer" });
    await changeMemberRole(database.db, {
      merchantId,
      userId: member.userId,
      role: "finance",
      actorId: owner.userId,
      audit: audit(owner),
    });
    expect(await session()).toBeUndefined();
    const renewed = await sessionOf(member);
    expect(await renewed()).toMatchObject({ role: "finance" });

    await removeMember(database.db, {
      merchantId,
      userId: member.userId,
      actorId: owner.userId,
      audit: audit(owner),
    });
    expect(await renewed()).toBeUndefined();
    // Even a cookie minted at the new version is refused: the member is gone.
    expect(await (await sessionOf(member))()).toBeUndefined();
    await expect(signIn("moving@example.com", "invitee password 1")).rejects.toBeInstanceOf(SignInError);
    expect((await listTeam(database.db, { merchantId })).members.map((m) => m.email)).not.toContain(
      "moving@example.com",
    );
    expect((await actions()).slice(-2)).toEqual([
      { action: "role_changed", detail: "moving@example.com: developer → finance", actor: owner.email },
      { action: "member_removed", detail: "moving@example.com (finance)", actor: owner.email },
    ]);

    // The address is free again: a new invitation makes a new member.
    const back = await join("moving@example.com", "viewer");
    expect(back.userId).not.toBe(member.userId);
    expect(back.role).toBe("viewer");
  });

  it("joins nobody whose address has a Kassa account elsewhere", async () => {
    await createTestMerchant(database, "Elsewhere");
    await invite("elsewhere@example.com", "viewer");
    await deliver();
    const token = linkToken(lastMailTo("elsewhere@example.com"));
    expect(await fieldsOf(acceptInvitation(database.db, { token, password: "invitee password 1" }))).toEqual({
      token: "This address already has a Kassa account. Ask the team to invite another address.",
    });
    const inTeam = await database.db
      .select()
      .from(users)
      .where(and(eq(users.merchantId, merchantId), eq(users.email, "elsewhere@example.com")));
    expect(inTeam).toEqual([]);
  });

  it("kills the invitations of an admin who is removed or loses team.manage", async () => {
    const removed = await join("gone-admin@example.com", "admin");
    const demoted = await join("demoted-admin@example.com", "admin");
    await invite("from-removed@example.com", "finance", removed);
    await invite("from-demoted@example.com", "admin", demoted);
    await invite("from-kept@example.com", "viewer", owner);
    await deliver();
    const fromRemoved = linkToken(lastMailTo("from-removed@example.com"));
    const fromDemoted = linkToken(lastMailTo("from-demoted@example.com"));
    await removeMember(database.db, {
      merchantId,
      userId: removed.userId,
      actorId: owner.userId,
      audit: audit(owner),
    });
    await changeMemberRole(database.db, {
      merchantId,
      userId: demoted.userId,
      role: "developer",
      actorId: owner.userId,
      audit: audit(owner),
    });
    const dead = "This invitation has expired, was revoked or was already used. Ask the team for a new one.";
    for (const token of [fromRemoved, fromDemoted])
      expect(
        await fieldsOf(acceptInvitation(database.db, { token, password: "invitee password 1" })),
      ).toEqual({
        token: dead,
      });
    // The owner's own invitation is untouched.
    const pending = (await listTeam(database.db, { merchantId })).invitations.map((i) => i.email);
    expect(pending).toContain("from-kept@example.com");
    expect(pending).not.toContain("from-removed@example.com");
    expect(pending).not.toContain("from-demoted@example.com");
  });

  it("reads the acting member's role from the database, not from their session", async () => {
    const admin = await join("stale-admin@example.com", "admin");
    const target = await join("target@example.com", "viewer");
    // The admin's session still says admin, but the owner has made them a viewer meanwhile.
    await changeMemberRole(database.db, {
      merchantId,
      userId: admin.userId,
      role: "viewer",
      actorId: owner.userId,
      audit: audit(owner),
    });
    await expect(
      removeMember(database.db, {
        merchantId,
        userId: target.userId,
        actorId: admin.userId,
        audit: audit(admin),
      }),
    ).rejects.toMatchObject({ code: "forbidden", status: 403 });
    await expect(
      changeMemberRole(database.db, {
        merchantId,
        userId: target.userId,
        role: "admin",
        actorId: admin.userId,
        audit: audit(admin),
      }),
    ).rejects.toMatchObject({ code: "forbidden", status: 403 });
    // A removed admin cannot act either.
    const former = await join("former-admin@example.com", "admin");
    await removeMember(database.db, {
      merchantId,
      userId: former.userId,
      actorId: owner.userId,
      audit: audit(owner),
    });
    await expect(
      removeMember(database.db, {
        merchantId,
        userId: target.userId,
        actorId: former.userId,
        audit: audit(former),
      }),
    ).rejects.toMatchObject({ code: "forbidden" });
    const [still] = await database.db.select().from(users).where(eq(users.id, target.userId));
    expect(still).toMatchObject({ role: "viewer", removedAt: null });
  });

  it("refuses invitations until the merchant has finished onboarding", async () => {
    const newcomerId = await createTestMerchant(database, "Newcomer");
    await database.db.update(merchants).set({ onboardedAt: null }).where(eq(merchants.id, newcomerId));
    const [founder] = await database.db.select().from(users).where(eq(users.merchantId, newcomerId));
    const inviter = { userId: founder!.id, email: founder!.email, role: founder!.role };
    const early = () =>
      inviteMember(database.db, {
        box: database.box,
        merchantId: newcomerId,
        inviter,
        email: "too-early@example.com",
        role: "developer",
        baseUrl: BASE,
        audit: audit(inviter),
      });
    await expect(early()).rejects.toMatchObject({
      status: 400,
      message: "Finish setting up your account (onboarding) before inviting your team.",
    });
    expect(
      await database.db.select().from(authTokens).where(eq(authTokens.email, "too-early@example.com")),
    ).toEqual([]);
    await database.db.update(merchants).set({ onboardedAt: new Date() }).where(eq(merchants.id, newcomerId));
    await early();
    expect(
      await database.db.select().from(authTokens).where(eq(authTokens.email, "too-early@example.com")),
    ).toHaveLength(1);
  });
});
