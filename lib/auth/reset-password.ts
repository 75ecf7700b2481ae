import "server-only";

import { and, eq, isNull, ne } from "drizzle-orm";
import { type Clock, sqlNow, systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { authTokens, users } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { hashPassword } from "@/lib/merchants/create-merchant";
import { NEXT_SESSION_VERSION } from "./end-sessions";
import { hashAuthToken } from "./issue-auth-token";
import { redeemAuthToken } from "./redeem-auth-token";

const BAD_LINK = "This reset link has expired or was already used. Ask for a new one.";

/**
 * Sets a new password from a reset link: the link is used up, the password replaced and every
 * session of the user ended, in one transaction; the user then signs in with the new password (and
 * their second factor, which a reset does not touch). The user's other unused reset links die too.
 */
export async function resetPassword(
  db: Db,
  input: { token: string; password: string; clock?: Clock },
): Promise<{ email: string }> {
  const clock = input.clock ?? systemClock;
  // A bad link is refused before the deliberately slow hash, so junk tokens cost next to nothing.
  const usable = await redeemAuthToken(db, {
    token: input.token,
    purpose: "password_reset",
    clock,
    peek: true,
  });
  if (!usable?.userId) throw fieldError({ token: BAD_LINK });
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db, async (tx) => {
    const redeemed = await redeemAuthToken(tx, { token: input.token, purpose: "password_reset", clock });
    if (!redeemed?.userId) throw fieldError({ token: BAD_LINK });
    await tx
      .update(users)
      .set({ passwordHash, sessionVersion: NEXT_SESSION_VERSION })
      .where(eq(users.id, redeemed.userId));
    await tx
      .update(authTokens)
      .set({ usedAt: sqlNow(clock) })
      .where(
        and(
          eq(authTokens.userId, redeemed.userId),
          isNull(authTokens.usedAt),
          ne(authTokens.tokenHash, hashAuthToken(input.token)),
        ),
      );
    return { email: redeemed.email };
  });
}
