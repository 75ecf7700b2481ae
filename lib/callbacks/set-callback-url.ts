import "server-only";

import { eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { assertResolvesPublic, type CallbackMode, checkCallbackUrl } from "./url-policy";

/** Sets (or clears, with null) the merchant's callback URL, after the policy checks of its mode; with `audit`, recorded in the same transaction. */
export async function setCallbackUrl(
  db: Db,
  input: { merchantId: number; url: string | null; mode: CallbackMode; audit?: AuditSource },
) {
  if (input.url !== null) await assertResolvesPublic(checkCallbackUrl(input.url, input.mode), input.mode);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(merchants)
      .set({ callbackUrl: input.url })
      .where(eq(merchants.id, input.merchantId))
      .returning({ id: merchants.id });
    if (updated.length === 0) throw notFound("No such merchant.");
    if (input.audit)
      await recordAuditEntry(tx, {
        merchantId: input.merchantId,
        ...input.audit,
        action: "callback_url_changed",
        detail: input.url ?? "removed",
      });
  });
}
