import "server-only";

import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

/** Whether the user signs in with a second factor: sensitive forms then ask for its code instead of the password. */
export async function hasSecondFactor(db: Db, userId: number): Promise<boolean> {
  const [user] = await db.select({ sealed: users.totpSecretSealed }).from(users).where(eq(users.id, userId));
  return Boolean(user?.sealed);
}
