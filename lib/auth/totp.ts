import "server-only";

import { randomBytes } from "node:crypto";
import { hash, verify as verifyHash } from "@node-rs/argon2";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { NEXT_SESSION_VERSION } from "./end-sessions";
import { parseTotpSecret } from "./parse-totp-secret";

const context = (userId: number) => `users:totp:${userId}`;

/** One step either side: a phone clock 30 seconds off still works. */
const EPOCH_TOLERANCE = 30;

/** A new TOTP secret and its otpauth:// URI, to show as a QR code; nothing is stored until confirmed. */
export function newTotpSecret(email: string) {
  const secret = generateSecret();
  return { secret, uri: generateURI({ issuer: "Kassa", label: email, secret }) };
}

/** The time step a code matches for this secret, or null. */
async function matchingStep(secret: string, code: string): Promise<number | null> {
  const result = await verify({ secret, token: code, epochTolerance: EPOCH_TOLERANCE });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/**
 * Accepts a code once: the user's last accepted time step moves forward in one conditional update,
 * so a code seen on the wire (or sent twice at once) cannot be used again, nor can an older one.
 */
export async function verifyTotpCode(
  db: Db,
  box: SecretBox,
  input: { userId: number; sealed: string; code: string },
): Promise<boolean> {
  const step = await matchingStep(box.open(input.sealed, context(input.userId)), input.code);
  if (step === null) return false;
  const accepted = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, input.userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return accepted.length > 0;
}

/**
 * Turns on the second factor once the user proves their app works (a valid code for the new
 * secret), and returns ten one-time recovery codes, shown once and stored only as hashes. A second
 * factor already on is not replaced: turning it off asks for the password first. Returns null when
 * the code does not match.
 */
export async function enableTotp(
  db: Db,
  box: SecretBox,
  input: { userId: number; secret: string; code: string },
): Promise<string[] | null> {
  const secret = parseTotpSecret(input.secret);
  const step = await matchingStep(secret, input.code.replace(/\s+/g, ""));
  if (step === null) return null;
  const codes = Array.from({ length: 10 }, () => {
    const raw = randomBytes(5).toString("hex");
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const enabled = await db
    .update(users)
    .set({
      totpSecretSealed: box.seal(secret, context(input.userId)),
      recoveryCodes: await Promise.all(codes.map((code) => hash(code))),
      totpLastStep: step,
      // Sessions signed in without the second factor end with it turned on.
      sessionVersion: NEXT_SESSION_VERSION,
    })
    .where(and(eq(users.id, input.userId), isNull(users.totpSecretSealed)))
    .returning({ id: users.id });
  if (enabled.length === 0)
    throw fieldError({ code: "Two-factor sign-in is already on. Turn it off first to set up a new app." });
  return codes;
}

export async function disableTotp(db: Db, userId: number): Promise<void> {
  await db
    .update(users)
    .set({
      totpSecretSealed: null,
      recoveryCodes: null,
      totpLastStep: null,
      sessionVersion: NEXT_SESSION_VERSION,
    })
    .where(eq(users.id, userId));
}

/**
 * Accepts an unused recovery code once: it is removed in a conditional update that only succeeds
 * while the code is still there, so concurrent sign-ins with one code let exactly one through.
 */
export async function redeemRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const [user] = await db.select({ codes: users.recoveryCodes }).from(users).where(eq(users.id, userId));
  for (const hashed of user?.codes ?? []) {
    if (!(await verifyHash(hashed, code.trim().toLowerCase()).catch(() => false))) continue;
    const redeemed = await db
      .update(users)
      .set({ recoveryCodes: sql`${users.recoveryCodes} - ${hashed}::text` })
      .where(and(eq(users.id, userId), sql`jsonb_exists(${users.recoveryCodes}, ${hashed}::text)`))
      .returning({ id: users.id });
    return redeemed.length > 0;
  }
  return false;
}
