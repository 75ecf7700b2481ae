import "server-only";

import type { Executor } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { claimSignInAttempt, type ThrottleKey } from "./claim-sign-in-attempt";
import { UNKNOWN_ADDRESS } from "./client-address";

/**
 * Rations the e-mails someone can make Kassa send: per recipient always (resets, sign-ups and invitations
 * share one count) and per client address when `ip` is given (forms anyone can post; without it, a member
 * is inviting someone). Counted whether or not the recipient has an account, so the answer reveals
 * nothing. Throws 429 with Retry-After when either is spent.
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
