import { cookies } from "next/headers";
import { withSession } from "@/lib/api/with-session";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { confirmUser } from "@/lib/auth/confirm-user";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";
import { disableTotp } from "@/lib/auth/totp";
import { totpDisableRequest } from "@/lib/schemas/dashboard";

export const POST = withSession(
  { permission: "account.manage", request: totpDisableRequest },
  async ({ db, session, body, request }) => {
    // The current password, rate-limited per user: a session on its own cannot take the second factor off.
    await confirmUser(db, { userId: session.userId, ask: "password", password: body.password });
    await disableTotp(db, session.userId);
    await recordSessionAction(db, { session, request, action: "two_factor_disabled" });
    const cookie = await renewSessionCookie(db, session);
    if (cookie) (await cookies()).set(cookie);
    return { disabled: true };
  },
);
