import "server-only";

import type { AuditSource } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { updateMerchantSetting } from "./update-merchant-setting";

/**
 * Turns the public API's optional "deposits less than minimum amount" callback on or off for a
 * merchant (lib/deposits/announce-below-minimum.ts). Off by default: Kassa's choice, since a
 * handler written for the ordinary deposit callbacks would not expect a `cancelled` deposit. With
 * `audit`, recorded in the trail in the same transaction.
 */
export async function setBelowMinimumCallback(
  db: Db,
  input: { merchantId: number; isOn: boolean; audit?: AuditSource },
): Promise<void> {
  await updateMerchantSetting(db, {
    merchantId: input.merchantId,
    set: { isBelowMinimumCallbackOn: input.isOn },
    audit: input.audit,
    action: "callback_settings_changed",
    detail: `below-minimum deposit callback ${input.isOn ? "on" : "off"}`,
  });
}
