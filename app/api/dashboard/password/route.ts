import { withSession } from "@/lib/api/with-session";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { changePassword } from "@/lib/auth/change-password";
import { keepSignedIn } from "@/lib/auth/session";
import { passwordRequest } from "@/lib/schemas/dashboard";

export const POST = withSession(
  { action: "account.password", request: passwordRequest },
  async ({ db, session, body, request }) => {
    await changePassword(db, {
      userId: session.userId,
      current: body.current_password,
      next: body.new_password,
    });
    await recordSessionAction(db, { session, request, action: "password_changed" });
    // Every other session of the user ended with the change: this browser stays signed in.
    return keepSignedIn(db, session, { changed: true });
  },
);
