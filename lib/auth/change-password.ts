import "server-only";

import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { hashPassword } from "@/lib/merchants/create-merchant";
import { confirmUser } from "./confirm-user";
import { NEXT_SESSION_VERSION } from "./end-sessions";

/** Changes a user's password (the current one confirmed, rate-limited: lib/auth/confirm-user.ts) and ends every session of theirs (the caller keeps its own: lib/auth/keep-session.ts). */
export async function changePassword(
  db: Db,
  input: { userId: number; current: string; next: string },
): Promise<void> {
  await confirmUser(db, {
    userId: input.userId,
    ask: "password",
    password: input.current,
    field: "current_password",
  });
  if (input.current === input.next)
    throw fieldError({ new_password: "Choose a password different from the current one." });
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.next), sessionVersion: NEXT_SESSION_VERSION })
    .where(eq(users.id, input.userId));
}
