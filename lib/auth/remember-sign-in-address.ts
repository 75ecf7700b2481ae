import "server-only";

import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { signInAddresses } from "@/lib/db/schema";

const RETENTION = sql`interval '90 days'`;

/** Whether the account signed in from this address within the last 90 days. */
export async function isRememberedSignInAddress(
  db: Db,
  input: { email: string; ip: string },
): Promise<boolean> {
  const t = signInAddresses;
  const [row] = await db
    .select({ at: t.lastSuccessAt })
    .from(t)
    .where(and(eq(t.email, input.email), eq(t.ip, input.ip), sql`${t.lastSuccessAt} > now() - ${RETENTION}`));
  return row !== undefined;
}

/** Records a successful sign-in's address (and forgets addresses unused for 90 days). */
export async function rememberSignInAddress(db: Db, input: { email: string; ip: string }): Promise<void> {
  const t = signInAddresses;
  await db.delete(t).where(lt(t.lastSuccessAt, sql`now() - ${RETENTION}`));
  await db
    .insert(t)
    .values(input)
    .onConflictDoUpdate({ target: [t.email, t.ip], set: { lastSuccessAt: sql`now()` } });
}
