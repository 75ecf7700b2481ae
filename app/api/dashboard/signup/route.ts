import { withSession } from "@/lib/api/with-session";
import { mailLinkBase } from "@/lib/auth/mail-link-base";
import { requestAddress } from "@/lib/auth/request-address";
import { requestSignUp } from "@/lib/auth/request-sign-up";
import { getSecretBox } from "@/lib/runtime";
import { createMerchantInput } from "@/lib/schemas/merchant";

/**
 * Public: e-mails a link that finishes the account, or, when the address already has one, a note
 * saying so. The answer is the same either way, so the form cannot be used to find accounts.
 */
export const POST = withSession(
  { request: createMerchantInput, isPublic: true },
  async ({ db, body, request }) => {
    await requestSignUp(db, {
      ...body,
      ip: requestAddress(request),
      baseUrl: mailLinkBase(request),
      box: getSecretBox(),
    });
    return { sent: true };
  },
);
