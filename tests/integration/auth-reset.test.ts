import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_THROTTLES } from "@/lib/auth/claim-sign-in-attempt";
import { AUTH_TOKEN_SECONDS } from "@/lib/auth/issue-auth-token";
import { requestPasswordReset } from "@/lib/auth/request-password-reset";
import { resetPassword } from "@/lib/auth/reset-password";
import { SignInError, verifySignIn } from "@/lib/auth/verify-sign-in";
import { authTokens, emails, signInThrottles, users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { sendQueuedEmail } from "@/lib/mail/send-email";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { linkToken, mailText } from "../support/mail-text";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { startSmtpServer } from "../support/smtp";

const BASE = "https://pay.example.test";

describe(`password reset by e-mail on ${testDriver}`, () => {
  let database: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpServer();
    for (const name of ["Forgetful", "Twice", "Late", "Quiet", "Spammed"])
      await createTestMerchant(database, name);
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
  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to === address);
  const signIn = (email: string, password: string) =>
    verifySignIn(database.db, database.box, { email, password, ip: "203.0.113.50" });
  const userOf = async (email: string) =>
    (await database.db.select().from(users).where(eq(users.email, email)))[0]!;

  it("mails a link to a registered address; the link sets a new password once and ends every session", async () => {
    const before = await userOf("forgetful@example.com");
    await requestPasswordReset(database.db, {
      box: database.box,
      email: " Forgetful@Example.com ",
      ip: "198.51.100.1",
      baseUrl: BASE,
    });
    await deliver();
    const [mail] = mailsTo("forgetful@example.com");
    expect(mailText(mail!)).toContain("Subject: Reset your Kassa password");
    expect(mailText(mail!)).toContain(`${BASE}/reset-password#token=`);
    const token = linkToken(mail!);
    // Only a hash is stored: the database alone does not hold a usable link.
    const stored = await database.db.select().from(authTokens).where(eq(authTokens.userId, before.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);
    // Not in the merchant's sandbox outbox, where a session alone could read it.
    const [queued] = await database.db.select().from(emails).where(eq(emails.kind, "password_reset"));
    expect(queued!.merchantId).toBeNull();

    expect(await resetPassword(database.db, { token, password: "a brand new password" })).toEqual({
      email: "forgetful@example.com",
    });
    const after = await userOf("forgetful@example.com");
    expect(after.sessionVersion).toBe(before.sessionVersion + 1);
    await expect(signIn("forgetful@example.com", "long password 1")).rejects.toBeInstanceOf(SignInError);
    expect((await signIn("forgetful@example.com", "a brand new password")).userId).toBe(before.id);

    expect(
      await fieldsOf(resetPassword(database.db, { token, password: "yet another password" })),
    ).toHaveProperty("token");
    expect((await userOf("forgetful@example.com")).passwordHash).toBe(after.passwordHash);
  });

  it("lets only one of two concurrent uses of a link through, and a used link ends the user's other links", async () => {
    await requestPasswordReset(database.db, {
      box: database.box,
      email: "twice@example.com",
      ip: "198.51.100.2",
      baseUrl: BASE,
    });
    await requestPasswordReset(database.db, {
      box: database.box,
      email: "twice@example.com",
      ip: "198.51.100.2",
      baseUrl: BASE,
    });
    await deliver();
    const [first, second] = mailsTo("twice@example.com").map(linkToken);
    const results = await Promise.allSettled(
      ["concurrent password 1", "concurrent password 2"].map((password) =>
        resetPassword(database.db, { token: first!, password }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as KassaError).fields).toHaveProperty("token");
    expect(
      await fieldsOf(resetPassword(database.db, { token: second!, password: "third password 3" })),
    ).toHaveProperty("token");
  });

  it("refuses a link once 30 minutes have passed", async () => {
    const clock = testClock();
    await requestPasswordReset(database.db, {
      box: database.box,
      email: "late@example.com",
      ip: "198.51.100.3",
      baseUrl: BASE,
      clock,
    });
    await deliver();
    const token = linkToken(mailsTo("late@example.com")[0]!);
    clock.advance(AUTH_TOKEN_SECONDS.password_reset + 1);
    expect(
      await fieldsOf(resetPassword(database.db, { token, password: "too late password", clock })),
    ).toHaveProperty("token");
    await expect(signIn("late@example.com", "long password 1")).resolves.toBeTruthy();
  });

  it("answers an unknown address exactly as a known one, and sends it nothing", async () => {
    const sentBefore = smtp.received.length;
    await expect(
      requestPasswordReset(database.db, {
        box: database.box,
        email: "nobody@example.com",
        ip: "198.51.100.4",
        baseUrl: BASE,
      }),
    ).resolves.toBeUndefined();
    await deliver();
    expect(smtp.received).toHaveLength(sentBefore);
    expect(
      await fieldsOf(resetPassword(database.db, { token: "not-a-token", password: "whatever password" })),
    ).toHaveProperty("token");
  });

  it("rations requests per recipient whether or not it has an account, then per client address", async () => {
    const { free } = SIGN_IN_THROTTLES.mail;
    for (const email of ["quiet@example.com", "unknown-quiet@example.com"]) {
      for (let i = 0; i < free; i++)
        await requestPasswordReset(database.db, {
          box: database.box,
          email,
          ip: `192.0.2.${i}`,
          baseUrl: BASE,
        });
      const refused = await requestPasswordReset(database.db, {
        box: database.box,
        email,
        ip: "192.0.2.99",
        baseUrl: BASE,
      }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(KassaError);
      expect((refused as KassaError).status).toBe(429);
      expect((refused as KassaError).retryAfterSeconds).toBeGreaterThan(0);
    }
    await deliver();
    expect(mailsTo("quiet@example.com")).toHaveLength(free);

    const perAddress = SIGN_IN_THROTTLES.mailIp.free;
    for (let i = 0; i < perAddress; i++)
      await requestPasswordReset(database.db, {
        box: database.box,
        email: `r${i}@example.com`,
        ip: "198.51.100.77",
        baseUrl: BASE,
      });
    const refused = await requestPasswordReset(database.db, {
      box: database.box,
      email: "spammed@example.com",
      ip: "198.51.100.77",
      baseUrl: BASE,
    }).catch((e: unknown) => e);
    expect((refused as KassaError).status).toBe(429);
    // The refused request was counted against the address only: the recipient's own count is untouched.
    const [row] = await database.db
      .select()
      .from(signInThrottles)
      .where(eq(signInThrottles.key, "mail:spammed@example.com"));
    expect(row).toBeUndefined();
  });
});
