import { verify } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import { cookies } from "next/headers";
import { withSession } from "@/lib/api/with-session";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";
import { disableTotp } from "@/lib/auth/totp";
import { users } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { totpDisableRequest } from "@/lib/schemas/dashboard";

export const POST = withSession({ request: totpDisableRequest }, async ({ db, session, body, request }) => {
  const [user] = await db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, session.userId));
  if (!user || !(await verify(user.hash, body.password).catch(() => false))) {
    throw fieldError({ password: "The password is not right." });
  }
  await disableTotp(db, session.userId);
  await recordSessionAction(db, { session, request, action: "two_factor_disabled" });
  const cookie = await renewSessionCookie(db, session);
  if (cookie) (await cookies()).set(cookie);
  return { disabled: true };
});
