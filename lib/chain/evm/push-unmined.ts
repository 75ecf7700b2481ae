import "server-only";

import type { EvmNetwork } from "./evm-network";
import { isReplacementDue, type ReplacementPolicy } from "./is-replacement-due";
import { sendStoredPayout } from "./payout/send-stored-payout";

/**
 * A signed payout or sweep not mined yet: replaced with higher fees once its current attempt has
 * waited past the threshold; otherwise, or when it cannot be replaced, its stored bytes are sent
 * again (a node may have dropped them). Why it was not replaced is logged once per transaction and
 * reason, not once a pass: `notReplaced` holds the reason last logged per `key` (per process), and
 * forgets it once the transaction is replaced.
 */
export async function pushUnmined<Key, Policy extends ReplacementPolicy>(input: {
  network: EvmNetwork;
  stored: { signedAt: Date; rawTransaction: string };
  /** How the log names it: `payout withdrawal:12`, `sweep 3`. */
  label: string;
  key: Key;
  notReplaced: Map<Key, string>;
  replacement: Policy | undefined;
  replace: (replacement: Policy) => Promise<{ replaced: unknown } | { reason: string }>;
}): Promise<"replaced" | "resent"> {
  const { stored, key, notReplaced, replacement } = input;
  if (replacement && isReplacementDue(stored, replacement)) {
    const outcome = await input.replace(replacement);
    if ("replaced" in outcome) {
      notReplaced.delete(key);
      return "replaced";
    }
    if (notReplaced.get(key) !== outcome.reason) {
      notReplaced.set(key, outcome.reason);
      console.warn(`[chain] ${input.label} not replaced: ${outcome.reason}`);
    }
  }
  await sendStoredPayout(input.network.client, stored);
  return "resent";
}
