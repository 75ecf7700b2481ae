import "server-only";

import type { PublicClient } from "viem";
import type { StoredPayout } from "./store-signed-payout";

/** What a node answers when it already holds (or has mined) these very bytes: the payout is out. */
const ALREADY_SENT =
  /already known|known transaction|nonce too low|already imported|transaction already exists/i;

/**
 * Sends a stored payout's (or sweep's) signed bytes. Sending them again is harmless: the same signed
 * transaction can be mined once only, so a retry, a restart or a second worker never pays twice.
 * A node that says it already has them counts as sent; anything else is thrown (the caller retries
 * with the same bytes later).
 */
export async function sendStoredPayout(
  client: PublicClient,
  payout: Pick<StoredPayout, "rawTransaction">,
): Promise<void> {
  try {
    await client.sendRawTransaction({ serializedTransaction: payout.rawTransaction as `0x${string}` });
  } catch (error) {
    if (ALREADY_SENT.test(fullMessage(error))) return;
    throw error;
  }
}

function fullMessage(error: unknown): string {
  const parts: string[] = [];
  for (
    let e = error as { message?: string; details?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  )
    parts.push(String(e.message ?? ""), String(e.details ?? ""));
  return parts.join(" ");
}
