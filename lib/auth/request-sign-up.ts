import "server-only";

import { sql } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { accountExistsEmail, finishSignUpEmail } from "@/lib/mail/auth-templates";
import { queueEmail } from "@/lib/mail/queue-email";
import { hashPassword } from "@/lib/merchants/create-merchant";
import { claimMailRequest } from "./claim-mail-request";
import { AUTH_TOKEN_SECONDS, issueAuthToken } from "./issue-auth-token";

/**
 * A sign-up, answered the same whether the address is taken or not: both cost one password hash
 * and one e-mail. A free address gets a link that creates the account when opened (24 hours, once),
 * so nobody can claim an address they do not read; a taken one gets a "you already have an account"
 * message instead. Rationed per recipient and per client address, like password resets.
 */
export async function requestSignUp(
  db: Db,
  input: {
    name: string;
    email: string;
    password: string;
    ip: string;
    baseUrl: string;
    box: SecretBox;
    clock?: Clock;
  },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const clock = input.clock ?? systemClock;
  await claimMailRequest(db, { email, ip: input.ip });
  const passwordHash = await hashPassword(input.password);
  await inTransaction(db, async (tx) => {
    const [user] = await tx
      .select({ merchantId: users.merchantId, email: users.email })
      .from(users)
      .where(sql`lower(${users.email}) = ${email} and ${users.removedAt} is null`);
    if (user) {
      const message = accountExistsEmail({
        signInLink: `${input.baseUrl}/login`,
        resetLink: `${input.baseUrl}/forgot-password`,
      });
      await queueEmail(tx, {
        merchantId: user.merchantId,
        kind: "account_exists",
        recipient: user.email,
        ...message,
      });
      return;
    }
    const token = await issueAuthToken(tx, {
      purpose: "sign_up",
      email,
      payload: { name: input.name, passwordHash },
      clock,
    });
    const message = finishSignUpEmail({
      link: `${input.baseUrl}/signup/finish#token=${token}`,
      hours: AUTH_TOKEN_SECONDS.sign_up / 3600,
    });
    await queueEmail(tx, {
      merchantId: null,
      kind: "sign_up",
      recipient: email,
      ...message,
      secret: { token, box: input.box },
    });
  });
}
