import "server-only";

import { eq, lt, sql } from "drizzle-orm";
import type { Db, Executor } from "@/lib/db/client";
import { signInThrottles } from "@/lib/db/schema";

/**
 * How attempts are rationed. The first `free` failures run at once; after that each failure makes
 * the next attempt wait `baseSeconds`, doubling, at most `capSeconds`. A key quiet for
 * `resetSeconds` starts over.
 */
export type ThrottlePolicy = { free: number; baseSeconds: number; capSeconds: number; resetSeconds: number };

const perAccount: ThrottlePolicy = { free: 5, baseSeconds: 30, capSeconds: 15 * 60, resetSeconds: 60 * 60 };

export const SIGN_IN_THROTTLES = {
  /**
   * Per account, from addresses it has not signed in from: after 5 failures a delay of 30 seconds
   * that doubles up to 15 minutes. A delay, never a lock; and it does not reach the owner's own
   * addresses (`device`), so knowing a merchant's e-mail is not enough to keep them out.
   */
  email: perAccount,
  /** Per account and address, for addresses the account signed in from before (sign_in_addresses). */
  device: perAccount,
  /** Per client address, across accounts: 30 attempts, then 15 minutes of silence. */
  ip: { free: 30, baseSeconds: 15 * 60, capSeconds: 15 * 60, resetSeconds: 15 * 60 },
  /**
   * E-mails someone can ask for (password reset, sign-up, team invitation), per address they go to: 3, then a delay of
   * 15 minutes that doubles up to an hour. Counted whether the address has an account or not.
   */
  mail: { free: 3, baseSeconds: 15 * 60, capSeconds: 60 * 60, resetSeconds: 60 * 60 },
  /** Those e-mails per client address, across recipients: 10, then 15 minutes of silence. */
  mailIp: { free: 10, baseSeconds: 15 * 60, capSeconds: 15 * 60, resetSeconds: 15 * 60 },
  /**
   * A signed-in user confirming a sensitive change with their password or code (lib/auth/confirm-user.ts),
   * per user: 5 wrong, then a delay of 30 seconds that doubles up to 15 minutes, so a stolen session
   * cannot guess the password through these forms.
   */
  reauth: perAccount,
} satisfies Record<string, ThrottlePolicy>;

/** Rows untouched for this long say nothing any policy still needs. */
const RETENTION = sql`interval '1 day'`;

export type ThrottleKey = { kind: keyof typeof SIGN_IN_THROTTLES; value: string };

const keyOf = (key: ThrottleKey) => `${key.kind}:${key.value}`;

/**
 * Claims one attempt for `key`, counting it as a failure until `releaseSignInAttempt` says
 * otherwise. Counted and checked in one upsert (the row lock orders concurrent claims), so of any
 * number of simultaneous guesses only those the policy allows reach the password check. Returns
 * null when the attempt may run, or how many seconds to wait.
 */
export async function claimSignInAttempt(db: Executor, key: ThrottleKey): Promise<number | null> {
  const policy: ThrottlePolicy = SIGN_IN_THROTTLES[key.kind];
  const t = signInThrottles;
  const isStale = sql`${t.updatedAt} < now() - make_interval(secs => ${policy.resetSeconds})`;
  const failures = sql`case when ${isStale} then 1 else ${t.failures} + 1 end`;
  const delay = sql`case when ${failures} < ${policy.free} then 0
    else least(${policy.capSeconds}, ${policy.baseSeconds} * power(2, ${failures} - ${policy.free})) end`;
  await db.delete(t).where(lt(t.updatedAt, sql`now() - ${RETENTION}`));
  const claimed = await db
    .insert(t)
    .values({
      key: keyOf(key),
      failures: 1,
      nextAllowedAt: sql`now() + make_interval(secs => ${1 < policy.free ? 0 : policy.baseSeconds})`,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`${failures}`,
        nextAllowedAt: sql`now() + make_interval(secs => ${delay})`,
        updatedAt: sql`now()`,
      },
      setWhere: sql`${t.nextAllowedAt} <= now()`,
    })
    .returning({ failures: t.failures });
  if (claimed.length > 0) return null;
  const [row] = await db
    .select({ wait: sql<number>`ceil(extract(epoch from ${t.nextAllowedAt} - now()))::int` })
    .from(t)
    .where(eq(t.key, keyOf(key)));
  return Math.max(1, row?.wait ?? 1);
}

/**
 * Takes back a claimed attempt that turned out not to be a failure: a successful sign-in clears the
 * account's (or account and address's) count, while the address keeps its delay and only loses the one count.
 */
export async function releaseSignInAttempt(db: Db, key: ThrottleKey): Promise<void> {
  const t = signInThrottles;
  if (key.kind !== "ip") {
    await db.delete(t).where(eq(t.key, keyOf(key)));
    return;
  }
  await db
    .update(t)
    .set({ failures: sql`greatest(${t.failures} - 1, 0)` })
    .where(eq(t.key, keyOf(key)));
}
