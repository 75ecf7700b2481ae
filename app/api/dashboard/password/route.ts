import { withSession } from "@/lib/api/with-session";
import { changePassword } from "@/lib/auth/change-password";
import { passwordRequest } from "@/lib/schemas/dashboard";

export const POST = withSession({ request: passwordRequest }, async ({ db, session, body }) => {
  await changePassword(db, {
    userId: session.userId,
    current: body.current_password,
    next: body.new_password,
  });
  return { changed: true };
});
