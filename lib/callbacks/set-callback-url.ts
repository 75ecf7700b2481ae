import "server-only";

import type { AuditSource } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { updateMerchantSetting } from "@/lib/merchants/update-merchant-setting";
import { assertResolvesPublic, type CallbackMode, checkCallbackUrl } from "./url-policy";

/** Sets (or clears, with null) the merchant's callback URL, after the policy checks of its mode; with `audit`, recorded in the same transaction. */
export async function setCallbackUrl(
  db: Db,
  input: { merchantId: number; url: string | null; mode: CallbackMode; audit?: AuditSource },
) {
  if (input.url !== null) await assertResolvesPublic(checkCallbackUrl(input.url, input.mode), input.mode);
  await updateMerchantSetting(db, {
    merchantId: input.merchantId,
    set: { callbackUrl: input.url },
    audit: input.audit,
    action: "callback_url_changed",
    detail: input.url ?? "removed",
  });
}
