import "server-only";

import type { Transaction } from "@scure/btc-signer";

/**
 * Signs a transaction whose fee is `rate` per virtual byte of its own signed size, never less.
 *
 * The size is known only once signed, and a signature's length varies by a byte with what it signs
 * (the fee, through the change output, is part of it): signing again at the measured size can come
 * out a virtual byte larger. So it signs until the fee covers the size of that very signing. Each
 * round raises the fee to the size just measured, and no signing is larger than every signature at
 * its longest, so it ends; in practice after two or three signings, a byte or so above the exact fee.
 *
 * `build(fee)` returns the transaction paying `fee`, signed and finalized; `estimatedVsize` sizes the
 * first signing, which only measures.
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
