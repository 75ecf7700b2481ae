import "server-only";

import { HDKey } from "@scure/bip32";
import type { AddressFormat } from "@/lib/currencies/registry";
import type { AccountKeys } from "./account-keys";
import { encodeAddress } from "./address-codec";

/**
 * Derivation paths per network: BIP84 (native segwit) for Bitcoin and Litecoin, BIP44 elsewhere,
 * with each network's SLIP-44 coin type. Tokens share their network's addresses (USDT on Ethereum
 * uses Ethereum addresses). Index i of the external chain is the i-th address handed out.
 */
export const ACCOUNT_PATHS: Record<AddressFormat, string> = {
  bitcoin: "m/84'/0'/0'/0",
  litecoin: "m/84'/2'/0'/0",
  bitcoincash: "m/44'/145'/0'/0",
  dogecoin: "m/44'/3'/0'/0",
  ethereum: "m/44'/60'/0'/0",
  tron: "m/44'/195'/0'/0",
  ripple: "m/44'/144'/0'/0",
};

export type DerivedAddress = { address: string; path: string };

const chainKeys = new WeakMap<AccountKeys, Map<AddressFormat, HDKey>>();

/**
 * The external chain's public key (account xpub / 0), cached per set of account keys, so handing
 * out an address derives one level. Public derivation only: no private key is ever in reach here.
 */
function externalChainKey(keys: AccountKeys, format: AddressFormat): HDKey {
  let byFormat = chainKeys.get(keys);
  if (!byFormat) {
    byFormat = new Map();
    chainKeys.set(keys, byFormat);
  }
  let key = byFormat.get(format);
  if (!key) {
    key = HDKey.fromExtendedKey(keys[format]).deriveChild(0);
    byFormat.set(format, key);
  }
  return key;
}

export function deriveAddress(keys: AccountKeys, format: AddressFormat, index: number): DerivedAddress {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
    throw new RangeError("address index out of range");
  const child = externalChainKey(keys, format).deriveChild(index);
  if (!child.publicKey) throw new Error("derivation produced no public key");
  return { address: encodeAddress(format, child.publicKey), path: `${ACCOUNT_PATHS[format]}/${index}` };
}
