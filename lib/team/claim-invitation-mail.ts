import "server-only";

import { claimSignInAttempt } from "@/lib/auth/claim-sign-in-attempt";
import type { Db } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";

/**
 * Rations invitations per recipient with the same count as resets and sign-ups (3, then a delay
 * from 15 minutes), so a team cannot flood someone's inbox with invitations. Not per client
 * address: the sender is a confirmed member, not an anonymous form.
 */
export async function claimInvitationMail(db: Db, email: string): Promise<void> {
  const wait = await claimSignInAttempt(db, { kind: "mail", value: email });
  if (wait === null) return;
  const error = new KassaError(
    "rate_limited",
    `Too many e-mails to ${email} lately. Try again in ${Math.ceil(wait / 60)} minutes.`,
  );
  error.retryAfterSeconds = wait;
  throw error;
}
