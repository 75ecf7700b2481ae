import "server-only";

import type { AuditSource } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { updateMerchantSetting } from "@/lib/merchants/update-merchant-setting";
import { formatScore, RISK_SCORE_PATTERN, scoreHundredths } from "./risk-score";

/**
 * Sets the score (0 to 100, at most two decimals) from which a merchant's incoming payments wait for
 * review. Applies to payments confirmed from now on; payments already held stay in the queue. The
 * change is recorded in the audit trail in the same transaction. Returns the threshold as stored.
 */
export async function setReviewThreshold(
  db: Db,
  input: { merchantId: number; threshold: string; audit: AuditSource },
): Promise<string> {
  const typed = input.threshold.trim();
  if (!RISK_SCORE_PATTERN.test(typed))
    throw fieldError({ threshold: "Type a score from 0 to 100, with at most two decimals." });
  const threshold = formatScore(scoreHundredths(typed));
  await updateMerchantSetting(db, {
    merchantId: input.merchantId,
    set: { reviewThreshold: threshold },
    audit: input.audit,
    action: "review_threshold_changed",
    detail: `review threshold ${threshold}`,
  });
  return threshold;
}
