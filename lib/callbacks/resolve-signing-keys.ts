import "server-only";

import { eq } from "drizzle-orm";
import { apiSecretContext } from "@/lib/api-keys/create-api-key";
import { followRolls } from "@/lib/api-keys/follow-rolls";
import { type Clock, systemClock } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Executor } from "@/lib/db/client";
import { apiKeys, merchants, transactions } from "@/lib/db/schema";

export type SigningKey = { key: string; secret: string };

/**
 * Who signs a callback: `primary` (X-Processing-Key and X-Processing-Signature) and, while the
 * primary key is in the overlap of a roll, the key that replaces it (`next`, sent as
 * X-Processing-Next-Key and X-Processing-Next-Signature). Or why nothing may sign it.
 */
export type SigningKeys = { primary: SigningKey; next: SigningKey | null } | { refusal: string };

type KeyRow = typeof apiKeys.$inferSelect;

/**
 * The keys that sign a callback (docs/decisions/callback-signing-key.md): the key whose request
 * created the transaction; for a transaction made in the dashboard or by Kassa (or a test
 * callback), the merchant's designated callback key. A rolled key is followed to the key that
 * replaced it once its overlap ends; a revoked or expired key never signs; a creating key that is
 * gone falls back to the designated key. Creating a key changes none of this.
 */
export async function resolveSigningKeys(
  db: Executor,
  box: SecretBox,
  input: { merchantId: number; transactionId: number | null; clock?: Clock },
): Promise<SigningKeys> {
  const now = (input.clock ?? systemClock).now();
  const [merchant] = await db
    .select({ callbackKeyId: merchants.callbackKeyId })
    .from(merchants)
    .where(eq(merchants.id, input.merchantId));
  const [transaction] =
    input.transactionId === null
      ? []
      : await db
          .select({ apiKeyId: transactions.apiKeyId })
          .from(transactions)
          .where(eq(transactions.id, input.transactionId));
  // A merchant has a handful of keys: reading them all is one small query, and the roll chain is
  // then followed in memory.
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.merchantId, input.merchantId));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const primary =
    followRolls(byId, transaction?.apiKeyId, now) ?? followRolls(byId, merchant?.callbackKeyId, now);
  if (!primary)
    return {
      refusal:
        merchant?.callbackKeyId == null
          ? "no signing key: no callback key is chosen"
          : "no signing key: the callback key is revoked or expired",
    };
  const successor = primary.replacedById === null ? undefined : followRolls(byId, primary.replacedById, now);
  const open = (row: KeyRow): SigningKey => ({
    key: row.key,
    secret: box.open(row.secretSealed, apiSecretContext(row.key)),
  });
  return { primary: open(primary), next: successor ? open(successor) : null };
}
