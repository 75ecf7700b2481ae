import "server-only";

import { type Clock, systemClock } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { insertMerchantRows } from "@/lib/merchants/create-merchant";
import { redeemAuthToken } from "./redeem-auth-token";

/**
 * Opens a sign-up link: creates the merchant it was asked for (not yet onboarded, no API key) and
 * uses the link up, in one transaction. When the address got an account meanwhile (two sign-ups,
 * both opened), the later link creates nothing and says to sign in.
 */
export async function finishSignUp(
  db: Db,
  box: SecretBox,
  input: { token: string; clock?: Clock },
): Promise<{ merchantId: number; email: string }> {
  const clock = input.clock ?? systemClock;
  try {
    return await inTransaction(db, async (tx) => {
      const redeemed = await redeemAuthToken(tx, { token: input.token, purpose: "sign_up", clock });
      if (!redeemed?.payload)
        throw fieldError({ token: "This link has expired or was already used. Sign up again, or sign in." });
      const created = await insertMerchantRows(tx, box, {
        name: redeemed.payload.name,
        email: redeemed.email,
        passwordHash: redeemed.payload.passwordHash,
        isSignUp: true,
      });
      return { merchantId: created.merchantId, email: created.email };
    });
  } catch (error) {
    if (isUniqueViolation(error, "users_email_key"))
      throw fieldError({ token: "This address already has an account. Sign in instead." });
    throw error;
  }
}
