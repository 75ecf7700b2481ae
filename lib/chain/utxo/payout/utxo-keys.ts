import "server-only";

import { HDKey } from "@scure/bip32";
import { encodeAddress } from "@/lib/chain/address-codec";
import { chainPath } from "@/lib/chain/derivation";
import { getCurrency } from "@/lib/currencies/registry";
import type { UtxoNetwork } from "../utxo-network";

/**
 * The change chain's path of a UTXO network (account / 1): index 0 is the hot wallet's receive
 * address, which the operator funds (`cli chain wallets`); index N is the change of payout N. Deposit
 * addresses are on the external chain (account / 0), so the watcher never takes change for a payment.
 */
export function changeChainPath(network: Pick<UtxoNetwork, "currency" | "net">): string {
  return chainPath(getCurrency(network.currency).addressFormat!, network.net).replace(/\/0$/, "/1");
}

/** The address and path of change-chain index `index`, derived with the signing seed. */
export function changeAddressOf(
  network: Pick<UtxoNetwork, "currency" | "net">,
  seed: Uint8Array,
  index: number,
): { address: string; path: string } {
  const path = `${changeChainPath(network)}/${index}`;
  const key = HDKey.fromMasterSeed(seed).derive(path);
  if (!key.publicKey) throw new Error("derivation produced no public key");
  return {
    address: encodeAddress(getCurrency(network.currency).addressFormat!, key.publicKey, network.net),
    path,
  };
}

/** The private keys of the given paths, from one master key: only the job runner opens the seed. */
export function privateKeysOf(seed: Uint8Array, paths: readonly string[]): Uint8Array[] {
  const master = HDKey.fromMasterSeed(seed);
  return paths.map((path) => {
    const key = master.derive(path).privateKey;
    if (!key) throw new Error(`derivation of ${path} produced no private key`);
    return key;
  });
}
