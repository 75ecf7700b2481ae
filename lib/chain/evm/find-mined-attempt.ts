import "server-only";

import { type TransactionReceipt, TransactionReceiptNotFoundError } from "viem";
import type { EvmNetwork } from "./evm-network";

/**
 * The receipt of whichever attempt of a signed payout or sweep was mined (the current one is asked
 * first): a replaced attempt may still be the one a block took, and it settles the transaction.
 */
export async function findMinedAttempt(
  network: EvmNetwork,
  stored: { txHash: string; replacedHashes: string[] },
): Promise<{ hash: string; receipt: TransactionReceipt } | undefined> {
  for (const hash of [stored.txHash, ...stored.replacedHashes]) {
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
