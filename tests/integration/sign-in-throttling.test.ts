import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_THROTTLES } from "@/lib/auth/claim-sign-in-attempt";
import { UNKNOWN_ADDRESS } from "@/lib/auth/client-address";
import { SignInError, verifySignIn } from "@/lib/auth/verify-sign-in";
import { signInThrottles } from "@/lib/db/schema";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant } from "../support/merchants";

const PASSWORD = "long password 1";

async function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "ok",
    (error: unknown) => (error instanceof SignInError ? error.reason : `unexpected: ${String(error)}`),
  );
}

/** Lets a throttled key's delay run out, as time would. */
async function waitOut(database: TestDatabase, key: string): Promise<void> {
  await database.db
    .update(signInThrottles)
    .set({ nextAllowedAt: sql`now() - interval '1 second'` })
    .where(eq(signInThrottles.key, key));
}

describe(`sign-in throttling on ${testDriver}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    for (const name of ["Racer", "Victim", "Owner", "Pruned"]) await createTestMerchant(database, name);
  });
  afterAll(() => database.drop());

  const signIn = (email: string, password: string, ip: string) =>
    verifySignIn(database.db, database.box, { email, password, ip });

  it("checks at most the account's free attempts against the password, however many guesses arrive at once", async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => outcome(signIn("racer@example.com", `wrong ${i}`, `10.0.0.${i}`))),
    );
    expect(results.filter((r) => r === "invalid")).toHaveLength(SIGN_IN_THROTTLES.email.free);
    expect(results.filter((r) => r === "locked")).toHaveLength(30 - SIGN_IN_THROTTLES.email.free);
  });

  it("delays the account instead of locking it: the owner gets in once the delay, capped, has passed", async () => {
    for (let i = 0; i < 40; i++) {
      await waitOut(database, "email:victim@example.com");
      expect(await outcome(signIn("victim@example.com", "guess", `192.0.2.${i}`))).toBe("invalid");
    }
    const refused = await signIn("victim@example.com", PASSWORD, "198.51.100.7").catch((e: SignInError) => e);
    expect(refused).toBeInstanceOf(SignInError);
    expect((refused as SignInError).reason).toBe("locked");
    expect((refused as SignInError).retryAfterSeconds).toBeLessThanOrEqual(
      SIGN_IN_THROTTLES.email.capSeconds,
    );

    await waitOut(database, "email:victim@example.com");
    expect(await outcome(signIn("victim@example.com", PASSWORD, "198.51.100.7"))).toBe("ok");
  });

  it("does not let strangers failing against an e-mail slow its owner down where the owner signs in", async () => {
    expect(await outcome(signIn("owner@example.com", PASSWORD, "198.51.100.20"))).toBe("ok");
    for (let i = 0; i < 10; i++)
      await signIn("owner@example.com", "guess", `192.0.2.${100 + i}`).catch(() => undefined);
    // From a new address the account is delayed...
    expect(await outcome(signIn("owner@example.com", PASSWORD, "198.51.100.21"))).toBe("locked");
    // ...but from the address the owner signed in from, it is not; and a typo there is not a lock either.
    expect(await outcome(signIn("owner@example.com", "typo", "198.51.100.20"))).toBe("invalid");
    expect(await outcome(signIn("owner@example.com", PASSWORD, "198.51.100.20"))).toBe("ok");
  });

  it("limits each address across accounts, and one address's failures do not spend another's", async () => {
    const { free } = SIGN_IN_THROTTLES.ip;
    for (let i = 0; i < free; i++) {
      expect(await outcome(signIn(`nobody${i}@example.com`, "guess", "203.0.113.9"))).toBe("invalid");
    }
    expect(await outcome(signIn("owner@example.com", PASSWORD, "203.0.113.9"))).toBe("locked");
    expect(await outcome(signIn("owner@example.com", PASSWORD, "198.51.100.20"))).toBe("ok");
  });

  it("keeps no shared bucket for requests without a known address, which anyone could fill", async () => {
    for (let i = 0; i <= SIGN_IN_THROTTLES.ip.free; i++) {
      expect(await outcome(signIn(`stranger${i}@example.com`, "guess", UNKNOWN_ADDRESS))).toBe("invalid");
    }
    expect(await outcome(signIn("pruned@example.com", PASSWORD, UNKNOWN_ADDRESS))).toBe("ok");
  });

  it("deletes throttle rows nobody has touched for a day as new attempts are written", async () => {
    await signIn("pruned@example.com", "guess", "100.64.0.1").catch(() => undefined);
    await database.db
      .update(signInThrottles)
      .set({ updatedAt: sql`now() - interval '25 hours'` })
      .where(eq(signInThrottles.key, "email:pruned@example.com"));
    await signIn("someone@example.com", "guess", "100.64.0.2").catch(() => undefined);
    const rows = await database.db
      .select()
      .from(signInThrottles)
      .where(eq(signInThrottles.key, "email:pruned@example.com"));
    expect(rows).toEqual([]);
  });
});
