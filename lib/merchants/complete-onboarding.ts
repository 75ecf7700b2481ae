import "server-only";

import { eq, sql } from "drizzle-orm";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import type { CallbackMode } from "@/lib/callbacks/url-policy";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";

/** Onboarding: the business name, an optional callback URL, and the first API key (its secret shown once). */
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
  },
) {
  if (input.callbackUrl)
    await setCallbackUrl(db, { merchantId: input.merchantId, url: input.callbackUrl, mode: input.mode });
  const key = await createApiKey(db, box, {
    merchantId: input.merchantId,
    label: input.keyLabel || "First key",
    canMoveMoney: input.mayMoveMoney,
    createdBy: input.userId,
  });
  await db
    .update(merchants)
    .set({ name: input.name, onboardedAt: sql`coalesce(${merchants.onboardedAt}, now())` })
    .where(eq(merchants.id, input.merchantId));
  return key;
}
