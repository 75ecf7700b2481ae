import "server-only";

import { HDKey } from "@scure/bip32";
import { bytesToHex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { type AccountKeys, accountKeyOf } from "@/lib/chain/account-keys";
import { encodeAddress } from "@/lib/chain/address-codec";

/**
 * The EVM hot wallet's derivation path: BIP44 account 0, chain 1 (the "change" chain, which deposit
 * addresses never use: they are m/44'/60'/0'/0/i), index 0. Payouts are signed with it and the
 * operator funds its address (`cli chain wallets`).
 */
export const HOT_WALLET_PATH = "m/44'/60'/0'/1/0";

/** The hot wallet's signing account, from the HD seed: only a process that opened the seed can sign. */
export function deriveHotWallet(seed: Uint8Array): PrivateKeyAccount {
  const key = HDKey.fromMasterSeed(seed).derive(HOT_WALLET_PATH);
  if (!key.privateKey) throw new Error("derivation produced no private key");
  return privateKeyToAccount(bytesToHex(key.privateKey));
}

/**
 * The hot wallet's address from the Ethereum account's public key (chain 1, index 0 below
 * m/44'/60'/0'): what the CLI, the metrics and reconciliation show, without opening the seed.
 */
export function hotWalletAddress(keys: AccountKeys): `0x${string}` {
  const key = accountKeyOf(keys, "m/44'/60'/0'").deriveChild(1).deriveChild(0);
  if (!key.publicKey) throw new Error("derivation produced no public key");
  return encodeAddress("ethereum", key.publicKey) as `0x${string}`;
}
