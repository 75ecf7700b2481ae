import "server-only";

import type { Transaction } from "@scure/btc-signer";

/**
 * Signs a transaction whose fee is `rate` per virtual byte of its own signed size, never less. A signature's
 * length varies with what it signs (the fee too), so it re-signs at each measured size until the fee covers
 * it: two or three signings, a byte or so over; it ends, since no signing outgrows the longest signatures.
 * `build(fee)` returns the transaction paying `fee`, signed and finalized; `estimatedVsize` sizes the first.
 */
export function signAtFeeRate(
  build: (fee: bigint) => Transaction,
  rate: bigint,
  estimatedVsize: number,
): Transaction {
  let fee = rate * BigInt(build(rate * BigInt(estimatedVsize)).vsize);
  for (;;) {
    const signed = build(fee);
    const wanted = rate * BigInt(signed.vsize);
    if (signed.fee >= wanted) return signed;
    fee = wanted;
  }
}
