import { eq, sql } from "drizzle-orm";
import { generate, generateSecret } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePassword } from "@/lib/auth/change-password";
import { SIGN_IN_THROTTLES } from "@/lib/auth/claim-sign-in-attempt";
import { confirmUser } from "@/lib/auth/confirm-user";
import { enableTotp } from "@/lib/auth/totp";
import { signInThrottles, users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const PASSWORD = "long password 1";

/** What a promise ended with: "ok", the refused fields' names, or the error code. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "ok",
    (error: unknown) =>
      error instanceof KassaError
        ? error.code === "validation_failed"
          ? Object.keys(error.fields ?? {}).join(",")
          : error.code
        : `unexpected: ${String(error)}`,
  );
}

describe(`re-authentication for sensitive changes on ${testDriver}`, () => {
  let database: TestDatabase;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    database = await createTestDatabase();
    for (const name of ["Guessed", "Keys", "Factor", "Racer"]) {
      await createTestMerchant(database, name);
      const [user] = await database.db
        .select()
        .from(users)
        .where(eq(users.email, `${name.toLowerCase()}@example.com`));
      ids[name] = user!.id;
    }
  });
  afterAll(() => database.drop());

  /** Lets a user's confirmation delay run out, as time would. */
  const waitOut = (userId: number) =>
    database.db
      .update(signInThrottles)
      .set({ nextAllowedAt: sql`now() - interval '1 second'` })
      .where(eq(signInThrottles.key, `reauth:${userId}`));

  it("checks at most 5 wrong current passwords of 12, then makes the user wait even with the right one", async () => {
    const userId = ids.Guessed!;
    // What POST /api/dashboard/password does (its `account.password` entry): the current password, then the change.
    const changePasswordConfirmed = async (input: { userId: number; current: string; next: string }) => {
      await confirmUser(database.db, {
        userId: input.userId,
        ask: "password",
        password: input.current,
        field: "current_password",
      });
      await changePassword(database.db, input);
    };
    const results: string[] = [];
    for (let i = 0; i < 12; i++)
      results.push(
        await outcome(changePasswordConfirmed({ userId, current: `guess ${i}`, next: "x".repeat(12) })),
      );
    expect(results.filter((r) => r === "current_password")).toHaveLength(SIGN_IN_THROTTLES.reauth.free);
    expect(results.filter((r) => r === "rate_limited")).toHaveLength(12 - SIGN_IN_THROTTLES.reauth.free);
    expect(
      await outcome(changePasswordConfirmed({ userId, current: PASSWORD, next: "new password 22" })),
    ).toBe("rate_limited");
    await waitOut(userId);
    expect(
      await outcome(changePasswordConfirmed({ userId, current: PASSWORD, next: "new password 22" })),
    ).toBe("ok");
  });

  it("lets only the policy's count through when wrong confirmations arrive at once", async () => {
    const userId = ids.Racer!;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        outcome(
          confirmUser(database.db, { userId, ask: "second_factor", box: database.box, password: `w${i}` }),
        ),
      ),
    );
    expect(results.filter((r) => r === "password")).toHaveLength(SIGN_IN_THROTTLES.reauth.free);
    expect(results.filter((r) => r === "rate_limited")).toHaveLength(20 - SIGN_IN_THROTTLES.reauth.free);
  });

  it("asks for the password without two-factor sign-in, and a right answer clears the count", async () => {
    const userId = ids.Keys!;
    const confirm = (password?: string) =>
      confirmUser(database.db, { userId, ask: "second_factor", box: database.box, password });
    expect(await fieldsOf(confirm())).toEqual({ password: "Type your password to confirm." });
    for (let i = 0; i < SIGN_IN_THROTTLES.reauth.free - 2; i++) await confirm("wrong").catch(() => undefined);
    await expect(confirm(PASSWORD)).resolves.toBeUndefined();
    const [row] = await database.db
      .select()
      .from(signInThrottles)
      .where(eq(signInThrottles.key, `reauth:${userId}`));
    expect(row).toBeUndefined();
  });

  it("asks for the authenticator code once two-factor sign-in is on: the password alone no longer does", async () => {
    const userId = ids.Factor!;
    const secret = generateSecret();
    await enableTotp(database.db, database.box, { userId, secret, code: await generate({ secret }) });
    const confirm = (input: { code?: string; password?: string }) =>
      confirmUser(database.db, { userId, ask: "second_factor", box: database.box, ...input });
    expect(Object.keys(await fieldsOf(confirm({ password: PASSWORD })))).toEqual(["code"]);
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    await expect(confirm({ code: next })).resolves.toBeUndefined();
    // Each code once: the same code again is a replay.
    expect(Object.keys(await fieldsOf(confirm({ code: next })))).toEqual(["code"]);
    // Turning the factor off asks for the password, on the same count.
    await expect(
      confirmUser(database.db, { userId, ask: "password", password: PASSWORD }),
    ).resolves.toBeUndefined();
    expect(await fieldsOf(confirmUser(database.db, { userId, ask: "password", password: "nope" }))).toEqual({
      password: "The password is not right.",
    });
  });
});
