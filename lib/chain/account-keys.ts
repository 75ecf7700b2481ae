import "server-only";

import { HDKey } from "@scure/bip32";
import { ACCOUNT_PATHS, TESTNET_ACCOUNT_PATHS } from "./account-paths";

/**
 * Account-level extended public keys, keyed by account path (the last hardened level: m/44'/60'/0'
 * for Ethereum, m/84'/1'/0' for the sandbox's Bitcoin testnet addresses). Everything below the
 * account is derived without hardening, so these public keys give every deposit address (chain 0)
 * and the EVM hot wallet's address (chain 1) without the seed: web processes hold only these
 * (DESIGN.md section 5).
 */
export type AccountKeys = Record<string, string>;

/** Every account an address is derived from: mainnet paths, and the testnet paths of the sandbox. */
export function accountPaths(): string[] {
  const chains = [...Object.values(ACCOUNT_PATHS), ...Object.values(TESTNET_ACCOUNT_PATHS)];
  return [...new Set(chains.map((path) => path.replace(/\/0$/, "")))];
}

/** Derived by a process that opened the seed; the result is public data. */
export function deriveAccountKeys(seed: Uint8Array): AccountKeys {
  const master = HDKey.fromMasterSeed(seed);
  return Object.fromEntries(accountPaths().map((path) => [path, master.derive(path).publicExtendedKey]));
}

/** Whether a stored set holds every account this version derives from (an older set may lack one). */
export function isCompleteAccountKeys(keys: AccountKeys): boolean {
  return accountPaths().every((path) => typeof keys[path] === "string");
}

/** The account's public key; throws when the set lacks it, which loadAccountKeys rules out. */
export function accountKeyOf(keys: AccountKeys, path: string): HDKey {
  const xpub = keys[path];
  if (!xpub) throw new Error(`no account key for ${path}`);
  return HDKey.fromExtendedKey(xpub);
}
