import "server-only";

import type { MerchantSession } from "@/lib/auth/merchant-session";
import type { AuditActor } from "./record-audit-entry";

/** The dashboard user behind a session, as the audit trail names them. */
export function sessionActor(session: MerchantSession): AuditActor {
  return { kind: "user", userId: session.userId, email: session.email };
}
