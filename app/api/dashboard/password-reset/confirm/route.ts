import { withSession } from "@/lib/api/with-session";
import { resetPassword } from "@/lib/auth/reset-password";
import { passwordResetConfirm } from "@/lib/schemas/auth";

/** Public: sets a new password from a reset link; every session of the user ends, and they sign in again. */
export const POST = withSession({ request: passwordResetConfirm, isPublic: true }, async ({ db, body }) => {
  const { email } = await resetPassword(db, { token: body.token, password: body.password });
  return { reset: true, email };
});
