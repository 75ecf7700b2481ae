import "server-only";

import { sql } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { passwordResetEmail } from "@/lib/mail/auth-templates";
import { queueEmail } from "@/lib/mail/queue-email";
import { claimMailRequest } from "./claim-mail-request";
import { AUTH_TOKEN_SECONDS, issueAuthToken } from "./issue-auth-token";

/**
 * A "forgot password" request. Rationed per recipient and per client address before anything is
 * looked up; when the address has an account, a single-use reset link (30 minutes) is e-mailed,
 * the token and the message written in one transaction. Returns nothing either way, so the caller's
 * answer cannot tell a registered address from any other.
 */
export async function requestPasswordReset(
  db: Db,
  input: { email: string; ip: string; baseUrl: string; box: SecretBox; clock?: Clock },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const clock = input.clock ?? systemClock;
  await claimMailRequest(db, { email, ip: input.ip });
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = ${email} and ${users.removedAt} is null`);
  if (!user) return;
  await inTransaction(db, async (tx) => {
    const token = await issueAuthToken(tx, { purpose: "password_reset", email, userId: user.id, clock });
    const message = passwordResetEmail({
      link: `${input.baseUrl}/reset-password#token=${token}`,
      minutes: AUTH_TOKEN_SECONDS.password_reset / 60,
    });
    // Kept out of the merchant's sandbox outbox: a session alone must not be able to read a reset
    // link there and set a password without knowing the current one.
    await queueEmail(tx, {
      merchantId: null,
      kind: "password_reset",
      recipient: user.email,
      ...message,
      secret: { token, box: input.box },
    });
  });
}
