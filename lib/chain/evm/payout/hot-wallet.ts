import "server-only";

import { HDKey } from "@scure/bip32";
import { bytesToHex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";

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
