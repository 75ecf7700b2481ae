import "server-only";

import { verify } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import { type SecondFactor, verifySecondFactor } from "@/lib/approvals/verify-second-factor";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { fieldError, KassaError } from "@/lib/errors";
import { claimSignInAttempt, releaseSignInAttempt, type ThrottleKey } from "./claim-sign-in-attempt";

/**
 * Re-confirms a signed-in user before a sensitive change. `second_factor` (API key, callback URL): the
 * authenticator code with two-factor on, else the password (lib/approvals/verify-second-factor.ts).
 * `password` (password change, second factor off): the current password. Throttled per user before any
 * check (SIGN_IN_THROTTLES.reauth); a right answer clears the count, a wrong one is a field error.
 */
export async function confirmUser(
  db: Db,
  input: { userId: number } & (
    | ({ ask: "second_factor"; box: SecretBox } & SecondFactor)
    | { ask: "password"; password: string; field?: string }
  ),
): Promise<void> {
  const key: ThrottleKey = { kind: "reauth", value: String(input.userId) };
  const wait = await claimSignInAttempt(db, key);
  if (wait !== null) {
    const error = new KassaError(
      "rate_limited",
      `Too many wrong confirmations. Try again in ${wait} seconds.`,
    );
    error.retryAfterSeconds = wait;
    throw error;
  }
  if (input.ask === "second_factor") await verifySecondFactor(db, input.box, input);
  else await verifyCurrentPassword(db, input);
  await releaseSignInAttempt(db, key);
}

async function verifyCurrentPassword(
  db: Db,
  input: { userId: number; password: string; field?: string },
): Promise<void> {
  const [user] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, input.userId));
  if (!user || !(await verify(user.hash, input.password).catch(() => false)))
    throw fieldError({ [input.field ?? "password"]: "The password is not right." });
}
