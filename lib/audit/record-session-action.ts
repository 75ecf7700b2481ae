import "server-only";

import type { MerchantSession } from "@/lib/auth/merchant-session";
import type { Executor } from "@/lib/db/client";
import { type AuditAction, recordAuditEntry } from "./record-audit-entry";
import { sessionSource } from "./session-source";

/** Records a dashboard user's action in their merchant's audit trail (pass the action's transaction where there is one). */
export async function recordSessionAction(
  db: Executor,
  input: { session: MerchantSession; request: Request; action: AuditAction; detail?: string },
): Promise<void> {
  await recordAuditEntry(db, {
    merchantId: input.session.merchantId,
    ...sessionSource(input.session, input.request),
    action: input.action,
    detail: input.detail,
  });
}
