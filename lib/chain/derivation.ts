import "server-only";

import type { HDKey } from "@scure/bip32";
import type { AddressFormat } from "@/lib/currencies/registry";
import { type AccountKeys, accountKeyOf } from "./account-keys";
import { ACCOUNT_PATHS, TESTNET_ACCOUNT_PATHS } from "./account-paths";
import { type ChainNet, encodeAddress } from "./address-codec";

export type DerivedAddress = { address: string; path: string };

/** The external chain's path (account / 0) of a format on a network kind (regtest uses testnet's coin type 1). */
export function chainPath(format: AddressFormat, net: ChainNet = "mainnet"): string {
  return (net !== "mainnet" && TESTNET_ACCOUNT_PATHS[format]) || ACCOUNT_PATHS[format];
}

const chainKeys = new WeakMap<AccountKeys, Map<string, HDKey>>();

/**
 * The external chain's public key (account xpub / 0), cached per set of account keys, so handing
 * out an address derives one level. Public derivation only: no private key is ever in reach here.
 */
function externalChainKey(keys: AccountKeys, path: string): HDKey {
  let byPath = chainKeys.get(keys);
  if (!byPath) {
    byPath = new Map();
    chainKeys.set(keys, byPath);
  }
  let key = byPath.get(path);
  if (!key) {
    key = accountKeyOf(keys, path.replace(/\/0$/, "")).deriveChild(0);
    byPath.set(path, key);
  }
  return key;
}

export function deriveAddress(
  keys: AccountKeys,
  format: AddressFormat,
  index: number,
  net: ChainNet = "mainnet",
): DerivedAddress {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
    throw new RangeError("address index out of range");
  const path = chainPath(format, net);
  const child = externalChainKey(keys, path).deriveChild(index);
  if (!child.publicKey) throw new Error("derivation produced no public key");
  return { address: encodeAddress(format, child.publicKey, net), path: `${path}/${index}` };
}
