import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SIGN_IN_THROTTLES } from "@/lib/auth/claim-sign-in-attempt";
import { finishSignUp } from "@/lib/auth/finish-sign-up";
import { AUTH_TOKEN_SECONDS } from "@/lib/auth/issue-auth-token";
import { requestSignUp } from "@/lib/auth/request-sign-up";
import { verifySignIn } from "@/lib/auth/verify-sign-in";
import { emails, merchants, users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { type MailSettings, sendQueuedEmail } from "@/lib/mail/send-email";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { linkToken, mailText } from "../support/mail-text";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { startSmtpServer } from "../support/smtp";

const BASE = "https://pay.example.test";
const PASSWORD = "a long enough password";

describe(`sign-up that does not reveal accounts, on ${testDriver}`, () => {
  let database: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpServer();
    await createTestMerchant(database, "Taken");
  });
  afterAll(async () => {
    await smtp.close();
    await database.drop();
  });

  async function deliver(settings: Partial<MailSettings> = {}): Promise<void> {
    const queued = await database.db
      .select({ id: emails.id })
      .from(emails)
      .where(eq(emails.status, "queued"));
    for (const { id } of queued)
      await sendQueuedEmail(database.db, id, {
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        box: database.box,
        from: "k@kassa.test",
        ...settings,
      });
  }
  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to === address);
  const signUp = (email: string, extra: { ip?: string; clock?: ReturnType<typeof testClock> } = {}) =>
    requestSignUp(database.db, {
      box: database.box,
      name: "Corner Bakery",
      email,
      password: PASSWORD,
      ip: extra.ip ?? "198.51.100.10",
      baseUrl: BASE,
      clock: extra.clock,
    });
  const usersWith = (email: string) => database.db.select().from(users).where(eq(users.email, email));

  it("creates nothing until the mailed link is opened; the link creates the account once", async () => {
    await expect(signUp("New.Baker@Example.com")).resolves.toBeUndefined();
    expect(await usersWith("new.baker@example.com")).toHaveLength(0);
    await deliver();
    const [mail] = mailsTo("new.baker@example.com");
    expect(mailText(mail!)).toContain("Subject: Finish creating your Kassa account");
    expect(mailText(mail!)).toContain(`${BASE}/signup/finish#token=`);
    const token = linkToken(mail!);

    const created = await finishSignUp(database.db, database.box, { token });
    expect(created.email).toBe("new.baker@example.com");
    const [merchant] = await database.db.select().from(merchants).where(eq(merchants.id, created.merchantId));
    expect(merchant).toMatchObject({ name: "Corner Bakery", onboardedAt: null });
    const signedIn = await verifySignIn(database.db, database.box, {
      email: "new.baker@example.com",
      password: PASSWORD,
      ip: "198.51.100.10",
    });
    expect(signedIn.merchantId).toBe(created.merchantId);

    expect(await fieldsOf(finishSignUp(database.db, database.box, { token }))).toHaveProperty("token");
    expect(await usersWith("new.baker@example.com")).toHaveLength(1);
  });

  it("answers a taken address the same, and mails its owner that they already have an account", async () => {
    const [before] = await usersWith("taken@example.com");
    await expect(signUp("taken@example.com")).resolves.toBeUndefined();
    await deliver();
    const [mail] = mailsTo("taken@example.com");
    const text = mailText(mail!);
    expect(text).toContain("Subject: You already have a Kassa account");
    expect(text).toContain(`${BASE}/forgot-password`);
    expect(text).not.toContain("#token=");
    const after = await usersWith("taken@example.com");
    expect(after).toEqual([before]);
  });

  it("creates one account when two sign-ups for one address are both opened", async () => {
    await signUp("double@example.com");
    await signUp("double@example.com");
    await deliver();
    const tokens = mailsTo("double@example.com").map(linkToken);
    expect(tokens).toHaveLength(2);
    await finishSignUp(database.db, database.box, { token: tokens[0]! });
    expect(await fieldsOf(finishSignUp(database.db, database.box, { token: tokens[1]! }))).toEqual({
      token: "This address already has an account. Sign in instead.",
    });
    expect(await usersWith("double@example.com")).toHaveLength(1);
  });

  it("refuses a sign-up link after 24 hours", async () => {
    const clock = testClock();
    await signUp("slow@example.com", { clock });
    await deliver();
    const token = linkToken(mailsTo("slow@example.com")[0]!);
    clock.advance(AUTH_TOKEN_SECONDS.sign_up + 1);
    expect(await fieldsOf(finishSignUp(database.db, database.box, { token, clock }))).toHaveProperty("token");
    expect(await usersWith("slow@example.com")).toHaveLength(0);
  });

  it("is rationed per address it mails, taken or not, with a 429 and Retry-After", async () => {
    for (const email of ["taken@example.com", "ration@example.com"]) {
      const already = mailsTo(email).length > 0 ? 1 : 0;
      for (let i = already; i < SIGN_IN_THROTTLES.mail.free; i++) await signUp(email, { ip: `192.0.2.${i}` });
      const refused = await signUp(email, { ip: "192.0.2.200" }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(KassaError);
      expect((refused as KassaError).status).toBe(429);
      expect((refused as KassaError).retryAfterSeconds).toBeGreaterThan(0);
    }
    await deliver();
    expect(mailsTo("ration@example.com")).toHaveLength(SIGN_IN_THROTTLES.mail.free);
  });

  it("without SMTP, prints the message and its working link to the log in a sandbox, and never in production", async () => {
    const printed: string[] = [];
    const log = vi
      .spyOn(console, "log")
      .mockImplementation((line: unknown) => void printed.push(String(line)));
    try {
      const deliverWithoutSmtp = (isPrintedWithoutSmtp: boolean) =>
        deliver({ smtpUrl: undefined, isPrintedWithoutSmtp });
      await signUp("production@example.com", { ip: "198.51.100.77" });
      await deliverWithoutSmtp(false);
      expect(printed).toEqual([]);

      await signUp("log.reader@example.com", { ip: "198.51.100.77" });
      await deliverWithoutSmtp(true);
      expect(printed).toHaveLength(1);
      expect(printed[0]).toContain("To: log.reader@example.com");
      expect(printed[0]).toContain("Subject: Finish creating your Kassa account");
      const token = printed[0]!.match(/\/signup\/finish#token=([A-Za-z0-9_-]+)/)?.[1];
      expect(token).toBeDefined();
      const created = await finishSignUp(database.db, database.box, { token: token! });
      expect(created.email).toBe("log.reader@example.com");
      // Printed, and kept only sealed (for the dev mailbox): the body column holds the redacted text,
      // and no column holds the link in clear.
      const [kept] = await database.db
        .select()
        .from(emails)
        .where(eq(emails.recipient, "log.reader@example.com"));
      expect(kept!.status).toBe("stored");
      expect(kept!.bodySealed).toBeTruthy();
      expect(kept!.body).not.toContain(token!);
      expect(JSON.stringify(kept)).not.toContain(token!);
    } finally {
      log.mockRestore();
    }
  });
});
