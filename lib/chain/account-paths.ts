import "server-only";

import type { AddressFormat } from "@/lib/currencies/registry";

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
