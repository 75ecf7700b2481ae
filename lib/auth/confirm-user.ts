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
 * Asks a signed-in user to prove it is them again before a sensitive change. `second_factor`
 * (creating an API key, changing the callback URL): the authenticator code when two-factor sign-in
 * is on, the password when it is off (lib/approvals/verify-second-factor.ts). `password` (changing
 * the password, turning the second factor off): the current password, always. Each check is
 * counted per user before anything is verified (SIGN_IN_THROTTLES.reauth): a session on its own
 * cannot guess its way through. A right answer clears the count; a wrong one answers a field error.
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
