import { eq } from "drizzle-orm";
import { decode, encode } from "next-auth/jwt";
import { generate, generateSecret } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePassword } from "@/lib/auth/change-password";
import { endSessions } from "@/lib/auth/end-sessions";
import { refreshSessionToken } from "@/lib/auth/refresh-session-token";
import { disableTotp, enableTotp } from "@/lib/auth/totp";
import { verifySignIn } from "@/lib/auth/verify-sign-in";
import { users } from "@/lib/db/schema";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant } from "../support/merchants";

const SECRET = "a session secret for this test only";

describe(`sessions end on sign-out and credential changes on ${testDriver}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    for (const name of ["Signout", "Password", "Factor", "Stale"]) await createTestMerchant(database, name);
  });
  afterAll(() => database.drop());

  /** Signs in as next-auth does (authorize, then the jwt callback) and returns the session cookie's value. */
  async function signIn(email: string, password = "long password 1", code?: string): Promise<string> {
    const user = await verifySignIn(database.db, database.box, { email, password, code, ip: "192.0.2.7" });
    const token = await refreshSessionToken(database.db, {
      token: { sub: String(user.userId), email },
      user: {
        id: String(user.userId),
        merchantId: user.merchantId,
        sessionVersion: user.sessionVersion,
        role: user.role,
      },
    });
    return encode({ token, secret: SECRET });
  }

  /** What a later request carrying the cookie gets: the merchant of the session, or undefined. */
  async function merchantOf(cookie: string): Promise<number | undefined> {
    const token = await decode({ token: cookie, secret: SECRET });
    return (await refreshSessionToken(database.db, { token: token ?? {} })).merchantId;
  }

  const userOf = async (email: string) => {
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    return user!;
  };

  it("refuses every cookie of a user after one of them signs out, and an old cookie cannot sign out again", async () => {
    const laptop = await signIn("signout@example.com");
    const phone = await signIn("signout@example.com");
    const user = await userOf("signout@example.com");
    expect(await merchantOf(laptop)).toBe(user.merchantId);

    // next-auth's signOut event with the laptop's token.
    const token = (await decode({ token: laptop, secret: SECRET }))!;
    await endSessions(database.db, { userId: user.id, sessionVersion: token.sessionVersion as number });
    expect(await merchantOf(laptop)).toBeUndefined();
    expect(await merchantOf(phone)).toBeUndefined();

    const fresh = await signIn("signout@example.com");
    expect(await merchantOf(fresh)).toBe(user.merchantId);
    // The captured cookie signing out again must not end the fresh session.
    await endSessions(database.db, { userId: user.id, sessionVersion: token.sessionVersion as number });
    expect(await merchantOf(fresh)).toBe(user.merchantId);
  });

  it("refuses a cookie issued before a password change", async () => {
    const before = await signIn("password@example.com");
    const user = await userOf("password@example.com");
    await changePassword(database.db, {
      userId: user.id,
      current: "long password 1",
      next: "long password 2",
    });
    expect(await merchantOf(before)).toBeUndefined();
    expect(await merchantOf(await signIn("password@example.com", "long password 2"))).toBe(user.merchantId);
  });

  it("refuses cookies issued before the second factor was turned on, and before it was turned off", async () => {
    const user = await userOf("factor@example.com");
    const withoutFactor = await signIn("factor@example.com");
    const secret = generateSecret();
    await enableTotp(database.db, database.box, {
      userId: user.id,
      secret,
      code: await generate({ secret }),
    });
    expect(await merchantOf(withoutFactor)).toBeUndefined();

    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const withFactor = await signIn("factor@example.com", "long password 1", next);
    expect(await merchantOf(withFactor)).toBe(user.merchantId);
    await disableTotp(database.db, user.id);
    expect(await merchantOf(withFactor)).toBeUndefined();
  });

  it("refuses a token without a session version (issued before versions existed) or for another merchant", async () => {
    const user = await userOf("stale@example.com");
    const legacy = await encode({
      token: { sub: String(user.id), merchantId: user.merchantId },
      secret: SECRET,
    });
    expect(await merchantOf(legacy)).toBeUndefined();
    const forged = await encode({
      token: { sub: String(user.id), merchantId: user.merchantId + 1, sessionVersion: user.sessionVersion },
      secret: SECRET,
    });
    expect(await merchantOf(forged)).toBeUndefined();
    const current = await encode({
      token: { sub: String(user.id), merchantId: user.merchantId, sessionVersion: user.sessionVersion },
      secret: SECRET,
    });
    expect(await merchantOf(current)).toBe(user.merchantId);
  });
});
