import "server-only";

import type { AuditSource } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { TOLERANCE_PERCENT_PATTERN } from "@/lib/schemas/merchant-settings";
import { formatTolerancePercent, toleranceBasisPoints } from "./tolerance-percent";
import { updateMerchantSetting } from "./update-merchant-setting";

/**
 * Sets the merchant's underpayment tolerance (a percentage, 0 to 10, two decimals at most), stored
 * in basis points. It applies to payments judged from now on (lib/invoices/judge-payments.ts),
 * invoices already paid keep their outcome. Audited in the same transaction. Returns it as stored.
 */
export async function setUnderpaymentTolerance(
  db: Db,
  input: { merchantId: number; percent: string; audit: AuditSource },
): Promise<string> {
  const typed = input.percent.trim();
  if (!TOLERANCE_PERCENT_PATTERN.test(typed))
    throw fieldError({ tolerance_percent: "Type a percentage from 0 to 10, with at most two decimals." });
  const basisPoints = toleranceBasisPoints(typed);
  const percent = formatTolerancePercent(basisPoints);
  await updateMerchantSetting(db, {
    merchantId: input.merchantId,
    set: { underpaymentToleranceBp: basisPoints },
    audit: input.audit,
    action: "underpayment_tolerance_changed",
    detail: `underpayment tolerance ${percent} %`,
  });
  return percent;
}
