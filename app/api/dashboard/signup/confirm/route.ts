import { withSession } from "@/lib/api/with-session";
import { finishSignUp } from "@/lib/auth/finish-sign-up";
import { getSecretBox } from "@/lib/runtime";
import { signUpConfirm } from "@/lib/schemas/auth";

/** Public: opens a sign-up link, creating the account; the page then asks the user to sign in. */
export const POST = withSession(
  { request: signUpConfirm, isPublic: true, successStatus: 201 },
  async ({ db, body }) => {
    const created = await finishSignUp(db, getSecretBox(), { token: body.token });
    return { merchant_id: created.merchantId, email: created.email };
  },
);
