import { eq } from "drizzle-orm";
import { generate, generateSecret } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enableTotp } from "@/lib/auth/totp";
import { SignInError, verifySignIn } from "@/lib/auth/verify-sign-in";
import { users } from "@/lib/db/schema";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const PASSWORD = "long password 1";

async function userIdOf(database: TestDatabase, email: string): Promise<number> {
  const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return user!.id;
}

async function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "ok",
    (error: unknown) => (error instanceof SignInError ? error.reason : `unexpected: ${String(error)}`),
  );
}

describe(`second factor on ${testDriver}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    for (const name of ["Replay", "Recovery", "Setup"]) await createTestMerchant(database, name);
  });
  afterAll(() => database.drop());

  const signIn = (email: string, code: string, ip: string) =>
    verifySignIn(database.db, database.box, { email, password: PASSWORD, code, ip });

  it("accepts a TOTP code once: the same code again, even at once, and the code that enabled it are refused", async () => {
    const secret = generateSecret();
    const userId = await userIdOf(database, "replay@example.com");
    const first = await generate({ secret });
    expect(await enableTotp(database.db, database.box, { userId, secret, code: first })).toHaveLength(10);
    // The code that turned the factor on cannot sign in.
    expect(await outcome(signIn("replay@example.com", first, "192.0.2.1"))).toBe("second_factor_invalid");

    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const results = await Promise.all(
      [1, 2, 3].map((i) => outcome(signIn("replay@example.com", next, `192.0.2.${10 + i}`))),
    );
    expect(results.sort()).toEqual(["ok", "second_factor_invalid", "second_factor_invalid"]);
  });

  it("lets one recovery code sign in exactly once when six sign-ins race with it", async () => {
    const secret = generateSecret();
    const userId = await userIdOf(database, "recovery@example.com");
    const codes = await enableTotp(database.db, database.box, {
      userId,
      secret,
      code: await generate({ secret }),
    });
    const code = codes![0]!;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => outcome(signIn("recovery@example.com", code, `198.51.100.${i}`))),
    );
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    // The others are refused: the code is spent (or the sixth waits out the account's free attempts).
    expect(
      results.filter((r) => r !== "ok").every((r) => ["second_factor_invalid", "locked"].includes(r)),
    ).toBe(true);
    const [user] = await database.db
      .select({ codes: users.recoveryCodes })
      .from(users)
      .where(eq(users.id, userId));
    expect(user?.codes).toHaveLength(9);
  });

  it("refuses degenerate, short and malformed secrets as field errors, and never replaces a factor that is on", async () => {
    const userId = await userIdOf(database, "setup@example.com");
    const tryEnable = async (secret: string) =>
      fieldsOf(enableTotp(database.db, database.box, { userId, secret, code: "123456" }));
    expect(Object.keys(await tryEnable("A".repeat(32)))).toEqual(["secret"]);
    expect(Object.keys(await tryEnable("ABABABABABABABABABABABABABABABAB"))).toEqual(["secret"]);
    expect(Object.keys(await tryEnable("JBSWY3DPEHPK3PXP"))).toEqual(["secret"]);
    expect(Object.keys(await tryEnable(`${generateSecret()}A`))).toEqual(["secret"]);
    expect(Object.keys(await tryEnable("not base32 at all!!!!!!!!!!!!!!!"))).toEqual(["secret"]);

    const secret = generateSecret();
    // A wrong code for a good secret changes nothing.
    expect(await enableTotp(database.db, database.box, { userId, secret, code: "000000" })).toBeNull();
    expect(
      await enableTotp(database.db, database.box, { userId, secret, code: await generate({ secret }) }),
    ).toHaveLength(10);
    const other = generateSecret();
    const fields = await fieldsOf(
      enableTotp(database.db, database.box, {
        userId,
        secret: other,
        code: await generate({ secret: other }),
      }),
    );
    expect(fields.code).toMatch(/already on/);
  });
});
