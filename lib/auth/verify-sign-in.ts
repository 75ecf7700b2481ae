import "server-only";

import { verify as verifyHash } from "@node-rs/argon2";
import { sql } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import type { Role } from "@/lib/team/permissions";
import { claimSignInAttempt, releaseSignInAttempt, type ThrottleKey } from "./claim-sign-in-attempt";
import { UNKNOWN_ADDRESS } from "./client-address";
import { isRememberedSignInAddress, rememberSignInAddress } from "./remember-sign-in-address";
import { redeemRecoveryCode, verifyTotpCode } from "./totp";

export type SignInFailure = "invalid" | "locked" | "second_factor_required" | "second_factor_invalid";

export class SignInError extends Error {
  constructor(
    readonly reason: SignInFailure,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "SignInError";
  }
}

/** An argon2 hash of a random password, verified when the e-mail is unknown so timing does not tell. */
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$BpIcJVKXs6E1YgnfzrM9qw$QxeqW4cFO6DxnBM2KBvkaWhH6MRb6vfhNLmzj4tgfLs";

/**
 * Checks a sign-in: e-mail and password (argon2id), then the user's second factor (TOTP or an unused
 * recovery code). Each attempt is claimed per client address, then per account, before anything is
 * verified (claim-sign-in-attempt.ts, SIGN_IN_THROTTLES: delays, never a lock; an address the account
 * signed in from before has its own count). Unknown e-mails take as long as known ones.
 */
export async function verifySignIn(
  db: Db,
  box: SecretBox,
  input: { email: string; password: string; code?: string; ip: string },
): Promise<{ userId: number; merchantId: number; email: string; sessionVersion: number; role: Role }> {
  const email = input.email.trim().toLowerCase();
  // Without a known address there is nothing to count per address: one shared "unknown" bucket
  // would let anyone silence every sign-in. The account's own count still applies.
  const isAddressKnown = input.ip !== UNKNOWN_ADDRESS;
  const address: ThrottleKey = { kind: "ip", value: input.ip };
  const account: ThrottleKey =
    isAddressKnown && (await isRememberedSignInAddress(db, { email, ip: input.ip }))
      ? { kind: "device", value: `${email} ${input.ip}` }
      : { kind: "email", value: email };
  const keys = isAddressKnown ? [address, account] : [account];
  for (const key of keys) {
    const wait = await claimSignInAttempt(db, key);
    if (wait !== null)
      throw new SignInError("locked", `Too many failed sign-ins. Try again in ${wait} seconds.`, wait);
  }

  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email} and ${users.removedAt} is null`);
  const isPasswordValid = await verifyHash(user?.passwordHash ?? DUMMY_HASH, input.password).catch(
    () => false,
  );
  if (!user || !isPasswordValid) throw new SignInError("invalid", "The e-mail or password is not right.");
  if (user.totpSecretSealed) {
    const code = input.code?.replace(/\s+/g, "") ?? "";
    if (!code)
      throw new SignInError("second_factor_required", "Enter the 6-digit code from your authenticator app.");
    const isValid = /^\d{6}$/.test(code)
      ? await verifyTotpCode(db, box, { userId: user.id, sealed: user.totpSecretSealed, code })
      : await redeemRecoveryCode(db, user.id, code);
    if (!isValid)
      throw new SignInError(
        "second_factor_invalid",
        "That code is not right. Check the time on your phone, or use a recovery code.",
      );
  }
  for (const key of keys) await releaseSignInAttempt(db, key);
  if (isAddressKnown) await rememberSignInAddress(db, { email, ip: input.ip });
  return {
    userId: user.id,
    merchantId: user.merchantId,
    email: user.email,
    sessionVersion: user.sessionVersion,
    role: user.role,
  };
}
