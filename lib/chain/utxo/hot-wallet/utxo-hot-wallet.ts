import "server-only";

import { type SQL, sql } from "drizzle-orm";
import { type AccountKeys, accountKeyOf } from "@/lib/chain/account-keys";
import { encodeAddress } from "@/lib/chain/address-codec";
import { getCurrency } from "@/lib/currencies/registry";
import { changeChainPath } from "../payout/utxo-keys";
import type { UtxoNetwork } from "../utxo-network";

/** A UTXO chain's hot wallet: the receive address the operator funds, and its derivation path. */
export type UtxoHotWallet = { address: string; path: string };

/**
 * The hot wallet of a UTXO network: index 0 of the change chain (account / 1 / 0), the address the
 * operator funds (payout N's change is index N, deposits are on account / 0). Derived from the
 * account's public key, so the CLI, the web and the watcher show it without opening the seed.
 */
export function utxoHotWallet(
  keys: AccountKeys,
  network: Pick<UtxoNetwork, "currency" | "net">,
): UtxoHotWallet {
  const chain = changeChainPath(network);
  const key = accountKeyOf(keys, chain.replace(/\/1$/, "")).deriveChild(1).deriveChild(0);
  if (!key.publicKey) throw new Error("derivation produced no public key");
  return {
    address: encodeAddress(getCurrency(network.currency).addressFormat!, key.publicKey, network.net),
    path: `${chain}/0`,
  };
}

/**
 * SQL condition for a coin the operator's funding brought: paid by a chain transaction (change has
 * none) to change-chain index 0 (`…'/1/0`, below a hardened account level; deposit paths end `/0/i`).
 */
export function isFundingCoin(alias: string): SQL {
  return sql.raw(`(${alias}.chain_transaction_id is not null and ${alias}.derivation_path like '%''/1/0')`);
}
