import "server-only";

import { HDKey } from "@scure/bip32";
import { bytesToHex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";

/**
 * A deposit address's signing account, from the HD seed and the path it was handed out on
 * (deposit_addresses.derivation_path, m/44'/60'/0'/0/i): only a process that opened the seed, the
 * job runner, can sign the sweep of an address.
 */
export function deriveDepositAccount(seed: Uint8Array, path: string): PrivateKeyAccount {
  const key = HDKey.fromMasterSeed(seed).derive(path);
  if (!key.privateKey) throw new Error(`derivation of ${path} produced no private key`);
  return privateKeyToAccount(bytesToHex(key.privateKey));
}
