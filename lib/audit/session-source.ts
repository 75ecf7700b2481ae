import "server-only";

import { requestAddress } from "@/lib/auth/request-address";
import type { MerchantSession } from "@/lib/auth/session";
import type { AuditSource } from "./record-audit-entry";

/** The signed-in user and their client address, as the audit trail records a dashboard action. */
export function sessionSource(session: MerchantSession, request: Request): AuditSource {
  return {
    actor: { kind: "user", userId: session.userId, email: session.email },
    address: requestAddress(request),
  };
}
