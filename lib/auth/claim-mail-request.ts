import "server-only";

import type { Executor } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { claimSignInAttempt, type ThrottleKey } from "./claim-sign-in-attempt";
import { UNKNOWN_ADDRESS } from "./client-address";

/**
 * Rations the e-mails someone can make Kassa send: per recipient always (a password reset, a
 * sign-up, a team invitation share one count, so no mix of them floods an inbox), and per client
 * address for the forms anyone can post (`ip`). Counted whether or not the recipient has an account,
 * so the answer says nothing about it. Throws 429 with Retry-After when either is spent.
 *
 * Without `ip` the sender is a signed-in member inviting someone, not an anonymous form: the message
 * names the recipient, whom that member chose.
 */
export async function claimMailRequest(db: Executor, input: { email: string; ip?: string }): Promise<void> {
  const keys: ThrottleKey[] = [
    ...(input.ip === undefined || input.ip === UNKNOWN_ADDRESS
      ? []
      : [{ kind: "mailIp" as const, value: input.ip }]),
    { kind: "mail", value: input.email },
  ];
  const asked = input.ip === undefined ? `to ${input.email} lately` : "asked for";
  for (const key of keys) {
    const wait = await claimSignInAttempt(db, key);
    if (wait === null) continue;
    const error = new KassaError(
      "rate_limited",
      `Too many e-mails ${asked}. Try again in ${Math.ceil(wait / 60)} minutes.`,
    );
    error.retryAfterSeconds = wait;
    throw error;
  }
}
