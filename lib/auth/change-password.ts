import "server-only";

import { verify } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { hashPassword } from "@/lib/merchants/create-merchant";
import { NEXT_SESSION_VERSION } from "./end-sessions";

/** Changes a user's password and ends every session of theirs (the caller keeps its own: lib/auth/keep-session.ts). */
export async function changePassword(
  db: Db,
  input: { userId: number; current: string; next: string },
): Promise<void> {
  const [user] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, input.userId));
  if (!user || !(await verify(user.hash, input.current).catch(() => false))) {
    throw fieldError({ current_password: "The current password is not right." });
  }
  if (input.current === input.next)
    throw fieldError({ new_password: "Choose a password different from the current one." });
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.next), sessionVersion: NEXT_SESSION_VERSION })
    .where(eq(users.id, input.userId));
}
