import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { assertResolvesPublic, type CallbackMode, checkCallbackUrl } from "@/lib/callbacks/url-policy";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";

/**
 * Onboarding, once per merchant: the business name, an optional callback URL, and the first API key
 * (its secret shown once), with its audit entry, in one transaction. Taken by a conditional update
 * of `onboarded_at`, so a second request (a replay, or two at once) is refused with `conflict` and
 * mints no key and replaces no callback URL: later keys and URLs go through their own confirmed pages.
 */
export async function completeOnboarding(
  db: Db,
  box: SecretBox,
  input: {
    merchantId: number;
    name: string;
    callbackUrl?: string;
    keyLabel?: string;
    mode: CallbackMode;
    /** The member onboarding (settings.manage), recorded as the key's creator. */
    userId: number;
    /** Whether that member may create payouts, and so a key that moves money. */
    mayMoveMoney: boolean;
    audit: AuditSource;
  },
) {
  // The URL's checks resolve its host: before the transaction, never inside it.
  if (input.callbackUrl)
    await assertResolvesPublic(checkCallbackUrl(input.callbackUrl, input.mode), input.mode);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(merchants)
      .set({
        name: input.name,
        onboardedAt: new Date(),
        ...(input.callbackUrl && { callbackUrl: input.callbackUrl }),
      })
      .where(and(eq(merchants.id, input.merchantId), isNull(merchants.onboardedAt)))
      .returning({ id: merchants.id });
    if (claimed.length === 0)
      throw new KassaError(
        "conflict",
        "Onboarding is already done. Create API keys on the API keys page and set the callback URL on the Callbacks page.",
      );
    const key = await createApiKey(tx, box, {
      merchantId: input.merchantId,
      label: input.keyLabel || "First key",
      canMoveMoney: input.mayMoveMoney,
      createdBy: input.userId,
    });
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "onboarding_completed",
      detail: `${key.key} (${key.label}${key.canMoveMoney ? ", moves money" : ""}); callback URL ${input.callbackUrl ?? "not set"}`,
    });
    return key;
  });
}
