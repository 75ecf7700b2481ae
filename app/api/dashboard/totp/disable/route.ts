import { withSession } from "@/lib/api/with-session";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { keepSignedIn } from "@/lib/auth/session";
import { disableTotp } from "@/lib/auth/totp";
import { totpDisableRequest } from "@/lib/schemas/dashboard";

export const POST = withSession(
  { action: "account.two_factor_off", request: totpDisableRequest },
  async ({ db, session, request }) => {
    await disableTotp(db, session.userId);
    await recordSessionAction(db, { session, request, action: "two_factor_disabled" });
    return keepSignedIn(db, session, { disabled: true });
  },
);
