import { withSession } from "@/lib/api/with-session";
import { enableTotp } from "@/lib/auth/totp";
import { fieldError } from "@/lib/errors";
import { getSecretBox } from "@/lib/runtime";
import { totpEnableRequest } from "@/lib/schemas/dashboard";

export const POST = withSession({ request: totpEnableRequest }, async ({ db, session, body }) => {
  const codes = await enableTotp(db, getSecretBox(), {
    userId: session.userId,
    secret: body.secret,
    code: body.code,
  });
  if (!codes)
    throw fieldError({
      code: "That code does not match. Check the time on your phone and try the next code.",
    });
  return { recovery_codes: codes };
});
