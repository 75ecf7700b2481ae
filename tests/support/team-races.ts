import { and, eq, isNull, sql } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { readRequestSession } from "@/lib/auth/read-request-session";
import type { Db } from "@/lib/db/client";
import { pgErrorCode } from "@/lib/db/errors";
import { users } from "@/lib/db/schema";
import type { Role } from "@/lib/team/permissions";
import type { TestDatabase } from "./database";

/** Members added straight to a merchant's team (no invitation mail), their ids in the order given. */
export async function addMembers(
  database: TestDatabase,
  input: { merchantId: number; prefix: string; roles: Role[] },
): Promise<number[]> {
  const rows = await database.db
    .insert(users)
    .values(
      input.roles.map((role, i) => ({
        merchantId: input.merchantId,
        email: `${input.prefix}-${i}-${role}@example.com`,
        passwordHash: "unused",
        role,
      })),
    )
    .returning({ id: users.id });
  return rows.map((row) => row.id);
}

/** The active owners of a merchant, by id. */
export async function ownersOf(db: Db, merchantId: number): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.merchantId, merchantId), eq(users.role, "owner"), isNull(users.removedAt)))
    .orderBy(users.id);
  return rows.map((row) => row.id);
}

/**
 * A session cookie of the user as next-auth issues it at sign-in (NEXTAUTH_SECRET set by the test
 * file), and a reader that asks, as every dashboard request does, whether it still stands.
 */
export async function sessionOf(db: Db, userId: number): Promise<() => Promise<unknown>> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const token = {
    sub: String(user!.id),
    email: user!.email,
    merchantId: user!.merchantId,
    sessionVersion: user!.sessionVersion,
  };
  const cookie = await encode({ token, secret: process.env.NEXTAUTH_SECRET! });
  return () =>
    readRequestSession(
      db,
      new Request("https://pay.example.test/api/dashboard/balances", {
        headers: { cookie: `next-auth.session-token=${cookie}` },
      }),
    );
}

/**
 * The same database handle, noting every transaction the driver aborted with PostgreSQL's
 * "deadlock detected" (40P01). lib/db/transaction.ts retries those, so a deadlock never shows in
 * the outcome; this is how a test sees that the lock order let one happen at all.
 */
export function watchDeadlocks(db: Db): { db: Db; deadlocks: () => number } {
  let deadlocks = 0;
  const watched = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "transaction") return Reflect.get(target, property, receiver);
      return (...args: Parameters<Db["transaction"]>) =>
        (target.transaction as (...a: typeof args) => Promise<unknown>)(...args).catch((error: unknown) => {
          if (pgErrorCode(error) === "40P01") deadlocks++;
          throw error;
        });
    },
  });
  return { db: watched, deadlocks: () => deadlocks };
}

/** How many of this database's connections wait for a row lock now (PostgreSQL only). */
export async function lockWaiters(db: Db): Promise<number> {
  const result = await db.execute(
    sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
}
