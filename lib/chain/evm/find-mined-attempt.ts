import "server-only";

import { type TransactionReceipt, TransactionReceiptNotFoundError } from "viem";
import type { EvmNetwork } from "./evm-network";

/**
 * The receipt of whichever of these transaction hashes a block took, asked in the order given (a
 * payout's or sweep's current attempt first: a replaced attempt may still be the one mined, and it
 * settles the transaction); undefined while none is mined.
 */
export async function findMinedAttempt(
  network: EvmNetwork,
  hashes: readonly string[],
): Promise<{ hash: string; receipt: TransactionReceipt } | undefined> {
  for (const hash of hashes) {
    const receipt = await network.client
      .getTransactionReceipt({ hash: hash as `0x${string}` })
      .catch((error) => {
        if (error instanceof TransactionReceiptNotFoundError) return undefined;
        throw error;
      });
    if (receipt) return { hash, receipt };
  }
  return undefined;
}
