import "server-only";

import { randomBytes } from "node:crypto";
import { hash, verify as verifyHash } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

const context = (userId: number) => `users:totp:${userId}`;

/** A new TOTP secret and its otpauth:// URI, to show as a QR code; nothing is stored until confirmed. */
export function newTotpSecret(email: string) {
  const secret = generateSecret();
  return { secret, uri: generateURI({ issuer: "Kassa", label: email, secret }) };
}

export async function verifyTotpCode(
  box: SecretBox,
  userId: number,
  sealed: string,
  code: string,
): Promise<boolean> {
  const secret = box.open(sealed, context(userId));
  const result = await verify({ secret, token: code, epochTolerance: 30 });
  return result.valid;
}

/**
 * Turns on the second factor once the user proves their app works (a valid code for the new
 * secret), and returns ten one-time recovery codes, shown once and stored only as hashes.
 */
export async function enableTotp(
  db: Db,
  box: SecretBox,
  input: { userId: number; secret: string; code: string },
): Promise<string[] | null> {
  const result = await verify({
    secret: input.secret,
    token: input.code.replace(/\s+/g, ""),
    epochTolerance: 30,
  });
  if (!result.valid) return null;
  const codes = Array.from({ length: 10 }, () => {
    const raw = randomBytes(5).toString("hex");
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await db
    .update(users)
    .set({
      totpSecretSealed: box.seal(input.secret, context(input.userId)),
      recoveryCodes: await Promise.all(codes.map((code) => hash(code))),
    })
    .where(eq(users.id, input.userId));
  return codes;
}

export async function disableTotp(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ totpSecretSealed: null, recoveryCodes: null }).where(eq(users.id, userId));
}

/** Accepts an unused recovery code once: it is removed as it is used. */
export async function redeemRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const [user] = await db.select({ codes: users.recoveryCodes }).from(users).where(eq(users.id, userId));
  const codes = user?.codes ?? [];
  for (const [index, hashed] of codes.entries()) {
    if (await verifyHash(hashed, code.trim().toLowerCase()).catch(() => false)) {
      await db
        .update(users)
        .set({ recoveryCodes: codes.filter((_, i) => i !== index) })
        .where(eq(users.id, userId));
      return true;
    }
  }
  return false;
}
