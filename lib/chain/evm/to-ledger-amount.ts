import "server-only";

import { SCALE } from "@/lib/money";

export type LedgerAmount = {
  /** The amount in ledger units (10^-8), rounded down: Kassa never credits more than arrived. */
  amount: bigint;
  /** What the rounding left behind, in base units (wei, token units): accounted for, never lost. */
  dust: bigint;
};

/**
 * A chain amount in base units (`decimals` fraction digits, 18 for ETH, a token's `decimals()`)
 * as a ledger amount: one explicit rounding, down, and the remainder kept as dust. Tokens with 8
 * decimals or fewer convert exactly.
 */
export function toLedgerAmount(baseUnits: bigint, decimals: number): LedgerAmount {
  if (baseUnits < 0n) throw new RangeError("a chain amount is never negative");
  if (decimals <= SCALE) return { amount: baseUnits * 10n ** BigInt(SCALE - decimals), dust: 0n };
  const step = 10n ** BigInt(decimals - SCALE);
  return { amount: baseUnits / step, dust: baseUnits % step };
}
