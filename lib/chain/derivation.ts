import "server-only";

import { HDKey } from "@scure/bip32";
import type { AddressFormat } from "@/lib/currencies/registry";
import { type ChainNet, encodeAddress } from "./address-codec";

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

/**
 * Testnet paths where the testnet has its own address format: SLIP-44 coin type 1, which every
 * testnet shares, so a testnet wallet restored from the same seed finds these addresses.
 * Ethereum, Tron and XRP keep their paths: their test networks use mainnet's formats.
 */
export const TESTNET_ACCOUNT_PATHS: Partial<Record<AddressFormat, string>> = {
  bitcoin: "m/84'/1'/0'/0",
  litecoin: "m/84'/1'/0'/0",
  bitcoincash: "m/44'/1'/0'/0",
  dogecoin: "m/44'/1'/0'/0",
};

export type DerivedAddress = { address: string; path: string };

const accountKeys = new WeakMap<Uint8Array, Map<string, HDKey>>();

function accountPath(format: AddressFormat, net: ChainNet): string {
  return (net === "testnet" && TESTNET_ACCOUNT_PATHS[format]) || ACCOUNT_PATHS[format];
}

/** The account-level key is cached per seed, so handing out an address derives two levels, not five. */
function accountKey(seed: Uint8Array, path: string): HDKey {
  let byPath = accountKeys.get(seed);
  if (!byPath) {
    byPath = new Map();
    accountKeys.set(seed, byPath);
  }
  let key = byPath.get(path);
  if (!key) {
    key = HDKey.fromMasterSeed(seed).derive(path);
    byPath.set(path, key);
  }
  return key;
}

export function deriveAddress(
  seed: Uint8Array,
  format: AddressFormat,
  index: number,
  net: ChainNet = "mainnet",
): DerivedAddress {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
    throw new RangeError("address index out of range");
  const path = accountPath(format, net);
  const child = accountKey(seed, path).deriveChild(index);
  if (!child.publicKey) throw new Error("derivation produced no public key");
  return { address: encodeAddress(format, child.publicKey, net), path: `${path}/${index}` };
}
