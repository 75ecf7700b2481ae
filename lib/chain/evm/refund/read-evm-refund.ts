import "server-only";

import type { EvmNetwork } from "../evm-network";
import { findMinedAttempt } from "../find-mined-attempt";
import { tokenTransfers } from "../token-transfers";

/** A refund transaction as the node has it, mined (a transaction only sent is not a refund yet). */
export type EvmRefundOnChain = {
  txid: `0x${string}`;
  isSuccess: boolean;
  blockNumber: bigint;
  from: string;
  nonce: number;
  /** The currency's base units it moved from `from` to other addresses (wei, token units). */
  baseAmount: bigint;
  /** Wei sent as value: for a token refund it must be none, since only the token was owed. */
  value: bigint;
  /** Gas paid in wei: gas used times the effective gas price, exactly. */
  gasWei: bigint;
};

/**
 * Reads a refund transaction from the node: its receipt (undefined while none is mined) and what it
 * moved of `currency` from `sender`: the ETH value it carried to another address, or the sum of
 * the token's Transfer logs from `sender` to other addresses. Refusing what does not fit is the
 * caller's (booking and reconciliation ask different questions of the same reading).
 */
export async function readEvmRefund(
  network: EvmNetwork,
  input: { txid: `0x${string}`; currency: string; sender: string },
): Promise<EvmRefundOnChain | undefined> {
  const receipt = (await findMinedAttempt(network, [input.txid]))?.receipt;
  if (!receipt) return undefined;
  const transaction = await network.client.getTransaction({ hash: input.txid });
  const sender = input.sender.toLowerCase();
  const from = transaction.from.toLowerCase();
  let baseAmount = 0n;
  if (receipt.status === "success" && from === sender) {
    if (input.currency === "ETH") {
      const isToAnother = transaction.to !== null && transaction.to.toLowerCase() !== sender;
      if (isToAnother) baseAmount = transaction.value;
    } else {
      for (const transfer of tokenTransfers(network, receipt, input.currency))
        if (transfer.from === sender && transfer.to !== sender) baseAmount += transfer.baseUnits;
    }
  }
  return {
    txid: input.txid,
    isSuccess: receipt.status === "success",
    blockNumber: receipt.blockNumber,
    from,
    nonce: transaction.nonce,
    baseAmount,
    value: transaction.value,
    gasWei: receipt.gasUsed * receipt.effectiveGasPrice,
  };
}
