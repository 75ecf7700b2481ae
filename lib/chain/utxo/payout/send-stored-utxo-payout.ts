import "server-only";

import type { UtxoNetwork } from "../utxo-network";
import { UtxoRpcError } from "../utxo-rpc";
import type { StoredUtxoPayout } from "./sign-utxo-payout";

/** RPC_VERIFY_ALREADY_IN_CHAIN: the node has these very bytes in a block; the payout is out. */
const ALREADY_IN_CHAIN = -27;

/**
 * Sends a stored payout's signed bytes. Sending them again is harmless: one signed transaction is
 * mined once at most, so a retry, a restart or a second worker never pays twice. A node that holds
 * them in its mempool accepts them again; one that has them in a block says so, which counts as sent.
 * Anything else is thrown, and the same bytes are sent again later.
 */
export async function sendStoredUtxoPayout(
  network: UtxoNetwork,
  payout: Pick<StoredUtxoPayout, "rawTransaction">,
): Promise<void> {
  try {
    await network.rpc.call<string>("sendrawtransaction", [payout.rawTransaction]);
  } catch (error) {
    if (error instanceof UtxoRpcError && error.code === ALREADY_IN_CHAIN) return;
    throw error;
  }
}
