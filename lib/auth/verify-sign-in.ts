import "server-only";

import { verify as verifyHash } from "@node-rs/argon2";
import { and, eq, gt, sql } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { signInAttempts, users } from "@/lib/db/schema";
import { redeemRecoveryCode, verifyTotpCode } from "./totp";

export const LOCKOUT = { windowMinutes: 15, perEmail: 5, perIp: 30 };

export type SignInFailure = "invalid" | "locked" | "second_factor_required" | "second_factor_invalid";

export class SignInError extends Error {
  constructor(
    readonly reason: SignInFailure,
    message: string,
  ) {
    super(message);
    this.name = "SignInError";
  }
}

/** An argon2 hash of a random password, verified when the e-mail is unknown so timing does not tell. */
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$BpIcJVKXs6E1YgnfzrM9qw$QxeqW4cFO6DxnBM2KBvkaWhH6MRb6vfhNLmzj4tgfLs";

async function recentFailures(
  db: Db,
  column: typeof signInAttempts.email | typeof signInAttempts.ip,
  value: string,
) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(signInAttempts)
    .where(
      and(
        eq(column, value),
        eq(signInAttempts.isSuccess, false),
        gt(signInAttempts.createdAt, sql`now() - make_interval(mins => ${LOCKOUT.windowMinutes})`),
      ),
    );
  return row?.count ?? 0;
}

/**
 * Checks a sign-in: e-mail and password (argon2id), then the second factor when the user has one
 * (a TOTP code or an unused recovery code). After 5 failures for an e-mail, or 30 from one address,
 * within 15 minutes, sign-in is refused for that e-mail or address until the window passes: counted in
 * the database, so every instance agrees. Unknown e-mails take as long as known ones.
 */
export async function verifySignIn(
  db: Db,
  box: SecretBox,
  input: { email: string; password: string; code?: string; ip: string },
): Promise<{ userId: number; merchantId: number; email: string }> {
  const email = input.email.trim().toLowerCase();
  if (
    (await recentFailures(db, signInAttempts.email, email)) >= LOCKOUT.perEmail ||
    (await recentFailures(db, signInAttempts.ip, input.ip)) >= LOCKOUT.perIp
  ) {
    throw new SignInError(
      "locked",
      `Too many failed sign-ins. Wait ${LOCKOUT.windowMinutes} minutes and try again.`,
    );
  }
  const record = (ok: boolean) => db.insert(signInAttempts).values({ email, ip: input.ip, isSuccess: ok });

  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
  const isPasswordValid = await verifyHash(user?.passwordHash ?? DUMMY_HASH, input.password).catch(
    () => false,
  );
  if (!user || !isPasswordValid) {
    await record(false);
    throw new SignInError("invalid", "The e-mail or password is not right.");
  }
  if (user.totpSecretSealed) {
    const code = input.code?.replace(/\s+/g, "") ?? "";
    if (!code)
      throw new SignInError("second_factor_required", "Enter the 6-digit code from your authenticator app.");
    const isValid = /^\d{6}$/.test(code)
      ? await verifyTotpCode(box, user.id, user.totpSecretSealed, code)
      : await redeemRecoveryCode(db, user.id, code);
    if (!isValid) {
      await record(false);
      throw new SignInError(
        "second_factor_invalid",
        "That code is not right. Check the time on your phone, or use a recovery code.",
      );
    }
  }
  await record(true);
  return { userId: user.id, merchantId: user.merchantId, email: user.email };
}
