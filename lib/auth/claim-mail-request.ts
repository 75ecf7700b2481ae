import "server-only";

import type { Db } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { claimSignInAttempt } from "./claim-sign-in-attempt";
import { UNKNOWN_ADDRESS } from "./client-address";

/**
 * Rations the e-mails anyone can make Kassa send (a password reset, a sign-up): per client address
 * and per recipient, counted whether or not the recipient has an account, so the answer says nothing
 * about it. Throws 429 with Retry-After when either is spent.
 */
export async function claimMailRequest(db: Db, input: { email: string; ip: string }): Promise<void> {
  const keys = [
    ...(input.ip === UNKNOWN_ADDRESS ? [] : [{ kind: "mailIp" as const, value: input.ip }]),
    { kind: "mail" as const, value: input.email },
  ];
  for (const key of keys) {
    const wait = await claimSignInAttempt(db, key);
    if (wait === null) continue;
    const error = new KassaError(
      "rate_limited",
      `Too many e-mails asked for. Try again in ${Math.ceil(wait / 60)} minutes.`,
    );
    error.retryAfterSeconds = wait;
    throw error;
  }
}
