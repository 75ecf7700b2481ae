import { withSession } from "@/lib/api/with-session";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { keepSignedIn } from "@/lib/auth/session";
import { enableTotp } from "@/lib/auth/totp";
import { fieldError } from "@/lib/errors";
import { getSecretBox } from "@/lib/runtime";
import { totpEnableRequest } from "@/lib/schemas/dashboard";

export const POST = withSession(
  { action: "account.two_factor_on", request: totpEnableRequest },
  async ({ db, session, body, request }) => {
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
    return keepSignedIn(db, session, { recovery_codes: codes });
  },
);
