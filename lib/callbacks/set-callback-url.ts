import "server-only";

import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { assertResolvesPublic, type CallbackMode, checkCallbackUrl } from "./url-policy";

/** Sets (or clears, with null) the merchant's callback URL, after the policy checks of its mode. */
export async function setCallbackUrl(
  db: Db,
  input: { merchantId: number; url: string | null; mode: CallbackMode },
) {
  if (input.url !== null) await assertResolvesPublic(checkCallbackUrl(input.url, input.mode), input.mode);
  const updated = await db
    .update(merchants)
    .set({ callbackUrl: input.url })
    .where(eq(merchants.id, input.merchantId))
    .returning({ id: merchants.id });
  if (updated.length === 0) throw notFound("No such merchant.");
}
