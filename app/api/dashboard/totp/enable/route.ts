import { withSession } from "@/lib/api/with-session";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { confirmUser } from "@/lib/auth/confirm-user";
import { keepSignedIn } from "@/lib/auth/session";
import { enableTotp } from "@/lib/auth/totp";
import { fieldError } from "@/lib/errors";
import { getSecretBox } from "@/lib/runtime";
import { totpEnableRequest } from "@/lib/schemas/dashboard";

export const POST = withSession(
  { permission: "account.manage", request: totpEnableRequest },
  async ({ db, session, body, request }) => {
    // The password first, always (even a right code from a stolen session's own app is not enough).
    await confirmUser(db, { userId: session.userId, ask: "password", password: body.password });
    const codes = await enableTotp(db, getSecretBox(), {
      userId: session.userId,
      secret: body.secret,
      code: body.code,
    });
    if (!codes)
      throw fieldError({
        code: "That code does not match. Check the time on your phone and try the next code.",
      });
    await recordSessionAction(db, { session, request, action: "two_factor_enabled" });
    // Sessions signed in without the second factor ended: this browser stays signed in.
    await keepSignedIn(db, session);
    return { recovery_codes: codes };
  },
);
