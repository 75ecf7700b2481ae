import "server-only";

import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { hashPassword } from "@/lib/merchants/create-merchant";
import { NEXT_SESSION_VERSION } from "./end-sessions";

/**
 * Changes a user's password and ends every session of theirs (the caller keeps its own:
 * keepSignedIn in lib/auth/session.ts). The current password was confirmed first (the route's
 * `account.password` entry in lib/team/sensitive-actions.ts; confirmUser, rate-limited per user),
 * and is passed here only so the new one must differ.
 */
export async function changePassword(
  db: Db,
  input: { userId: number; current: string; next: string },
): Promise<void> {
  if (input.current === input.next)
    throw fieldError({ new_password: "Choose a password different from the current one." });
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.next), sessionVersion: NEXT_SESSION_VERSION })
    .where(eq(users.id, input.userId));
}
