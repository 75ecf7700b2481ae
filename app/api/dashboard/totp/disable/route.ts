import { withSession } from "@/lib/api/with-session";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { confirmUser } from "@/lib/auth/confirm-user";
import { keepSignedIn } from "@/lib/auth/session";
import { disableTotp } from "@/lib/auth/totp";
import { totpDisableRequest } from "@/lib/schemas/dashboard";

export const POST = withSession(
  { permission: "account.manage", request: totpDisableRequest },
  async ({ db, session, body, request }) => {
    // The current password, rate-limited per user: a session on its own cannot take the second factor off.
    await confirmUser(db, { userId: session.userId, ask: "password", password: body.password });
    await disableTotp(db, session.userId);
    await recordSessionAction(db, { session, request, action: "two_factor_disabled" });
    await keepSignedIn(db, session);
    return { disabled: true };
  },
);
