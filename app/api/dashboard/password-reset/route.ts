import { withSession } from "@/lib/api/with-session";
import { mailLinkBase } from "@/lib/auth/mail-link-base";
import { requestAddress } from "@/lib/auth/request-address";
import { requestPasswordReset } from "@/lib/auth/request-password-reset";
import { getSecretBox } from "@/lib/runtime";
import { passwordResetRequest } from "@/lib/schemas/auth";

/** Public: e-mails a reset link if the address has an account; the answer is the same either way. */
export const POST = withSession(
  { request: passwordResetRequest, isPublic: true },
  async ({ db, body, request }) => {
    await requestPasswordReset(db, {
      email: body.email,
      ip: requestAddress(request),
      baseUrl: mailLinkBase(request),
      box: getSecretBox(),
    });
    return { sent: true };
  },
);
