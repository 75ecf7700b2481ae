import "server-only";

import { HDKey } from "@scure/bip32";
import type { AddressFormat } from "@/lib/currencies/registry";
import { ACCOUNT_PATHS } from "./derivation";

/**
 * Account-level extended public keys, one per address format (BIP44/BIP84 account 0, the last
 * hardened level: m/44'/60'/0' for Ethereum). Everything below the account is derived without
 * hardening, so these public keys give every deposit address (chain 0) and the EVM hot wallet's
 * address (chain 1) without the seed: web processes hold only these (DESIGN.md section 5).
 */
export type AccountKeys = Record<AddressFormat, string>;

/** m/44'/60'/0'/0 -> m/44'/60'/0': the account above the external chain. */
export function accountPath(format: AddressFormat): string {
  return ACCOUNT_PATHS[format].replace(/\/0$/, "");
}

/** Derived by a process that opened the seed; the result is public data. */
export function deriveAccountKeys(seed: Uint8Array): AccountKeys {
  const master = HDKey.fromMasterSeed(seed);
  const keys = {} as AccountKeys;
  for (const format of Object.keys(ACCOUNT_PATHS) as AddressFormat[])
    keys[format] = master.derive(accountPath(format)).publicExtendedKey;
  return keys;
}
