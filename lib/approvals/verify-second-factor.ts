import "server-only";

import { verify } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import { verifyTotpCode } from "@/lib/auth/totp";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";

export type SecondFactor = { code?: string; password?: string };

/**
 * Asks the signed-in user to prove it is them again before a sensitive change (approving or
 * declining a payout, changing a limit): a code from their authenticator app when two-factor
 * sign-in is on (each code accepted once), their password when it is off. Refused with a field
 * error naming what to type. Routes call it through confirmUser (lib/auth/confirm-user.ts), which
 * counts wrong answers per user first; called alone it would let a session guess without limit.
 */
export async function verifySecondFactor(
  db: Db,
  box: SecretBox,
  input: { userId: number } & SecondFactor,
): Promise<void> {
  const [user] = await db
    .select({ hash: users.passwordHash, sealed: users.totpSecretSealed })
    .from(users)
    .where(eq(users.id, input.userId));
  if (!user) throw fieldError({ password: "Your user no longer exists. Sign in again." });
  if (user.sealed) {
    const code = input.code?.replace(/\s+/g, "") ?? "";
    if (!code) throw fieldError({ code: "Type the code from your authenticator app." });
    if (!(await verifyTotpCode(db, box, { userId: input.userId, sealed: user.sealed, code })))
      throw fieldError({ code: "That code does not match, or was already used. Wait for the next one." });
    return;
  }
  if (!input.password) throw fieldError({ password: "Type your password to confirm." });
  if (!(await verify(user.hash, input.password).catch(() => false)))
    throw fieldError({ password: "The password is not right." });
}
