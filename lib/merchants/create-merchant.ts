import "server-only";

import { hash } from "@node-rs/argon2";
import { type CreatedApiKey, createApiKey } from "@/lib/api-keys/create-api-key";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { CURRENCIES } from "@/lib/currencies/registry";
import type { Db, Executor } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { ledgerAccounts, merchants, users } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import type { CreateMerchantInput } from "@/lib/schemas/merchant";

export type CreatedMerchant = {
  merchantId: number;
  userId: number;
  name: string;
  email: string;
  apiKey: CreatedApiKey;
};

export type SignedUpMerchant = Omit<CreatedMerchant, "apiKey">;

/** argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

/**
 * The rows of a new merchant, in the caller's transaction: the merchant, its first user (the
 * sign-in), a zero balance account per currency and, for a ready merchant, a first API key pair.
 * A sign-up gets no key: onboarding creates the first one and shows its secret.
 */
export async function insertMerchantRows(
  tx: Executor,
  box: SecretBox,
  input: { name: string; email: string; passwordHash: string; isSignUp: boolean },
): Promise<SignedUpMerchant & { apiKey?: CreatedApiKey }> {
  const { name, email, passwordHash, isSignUp } = input;
  const [merchant] = await tx
    .insert(merchants)
    .values({ name, email, onboardedAt: isSignUp ? null : new Date() })
    .returning({ id: merchants.id });
  const merchantId = merchant!.id;
  const [user] = await tx
    .insert(users)
    .values({ merchantId, email, passwordHash })
    .returning({ id: users.id });
  await tx
    .insert(ledgerAccounts)
    .values(CURRENCIES.map((currency) => ({ merchantId, kind: "balance", currency: currency.code })));
  const apiKey = isSignUp
    ? undefined
    : await createApiKey(tx, box, {
        merchantId,
        label: "Default key",
        // A merchant the operator creates gets a key with full rights, created by its owner.
        canMoveMoney: true,
        createdBy: user!.id,
      });
  return { merchantId, userId: user!.id, name, email, apiKey };
}

/**
 * Creates a ready merchant (operators: the CLI, the demo seed) with its first user (the sign-in),
 * a zero balance account per currency, and a first API key pair, in one transaction. The password
 * is hashed before the transaction opens, because hashing is deliberately slow.
 */
export async function createMerchant(
  db: Db,
  box: SecretBox,
  input: CreateMerchantInput,
): Promise<CreatedMerchant> {
  const passwordHash = await hashPassword(input.password);
  const email = input.email.trim().toLowerCase();
  try {
    return (await inTransaction(db, (tx) =>
      insertMerchantRows(tx, box, { name: input.name, email, passwordHash, isSignUp: false }),
    )) as CreatedMerchant;
  } catch (error) {
    if (isUniqueViolation(error, "users_email_key"))
      throw fieldError({ email: "The email has already been taken." });
    throw error;
  }
}
