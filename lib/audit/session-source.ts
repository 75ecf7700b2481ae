import "server-only";

import type { MerchantSession } from "@/lib/auth/merchant-session";
import { requestAddress } from "@/lib/auth/request-address";
import type { AuditSource } from "./record-audit-entry";
import { sessionActor } from "./session-actor";

/** The signed-in user and their client address, as the audit trail records a dashboard action. */
export function sessionSource(session: MerchantSession, request: Request): AuditSource {
  return {
    actor: sessionActor(session),
    address: requestAddress(request),
  };
}
