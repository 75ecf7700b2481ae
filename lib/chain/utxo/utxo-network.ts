import "server-only";

import type { ChainNet } from "@/lib/chain/address-codec";
import { assertSandboxNetwork } from "@/lib/chain/assert-sandbox-network";
import type { UtxoCoin, UtxoConfig } from "@/lib/config";
import { getCurrency } from "@/lib/currencies/registry";
import { type UtxoRpc, utxoRpc } from "./utxo-rpc";

/** The registry's network of each UTXO coin (chain_cursors, deposit_addresses and incidents are keyed by it). */
export const UTXO_NETWORK_OF: Record<UtxoCoin, string> = { BTC: "bitcoin", LTC: "litecoin" };

/** What `getblockchaininfo`'s `chain` says, as address nets: main, test (testnet3, Litecoin's testnet4), regtest. */
const NET_OF_CHAIN: Record<string, ChainNet> = { main: "mainnet", test: "testnet", regtest: "regtest" };

/** A connected Bitcoin Core-family node, with what Kassa reads from it once: which chain it is on. */
export type UtxoNetwork = {
  currency: UtxoCoin;
  network: string;
  /** The address net the node's chain uses (bcrt1…/rltc1… on regtest). */
  net: ChainNet;
  /** As the node says it: "main", "test", "regtest". */
  chain: string;
  rpc: UtxoRpc;
  /** Confirmations required per currency code (KASSA_<COIN>_CONFIRMATIONS, or the registry's). */
  confirmations: Record<string, number>;
};

/**
 * Connects to the node: reads its chain from `getblockchaininfo`, so addresses follow it. A sandbox
 * installation refuses a mainnet node (its merchants' balances are play money; a real payment must
 * never land there), and an unknown chain (signet, a fork's own name) is refused rather than guessed.
 */
export async function connectUtxoNetwork(
  currency: UtxoCoin,
  config: UtxoConfig,
  mode: "sandbox" | "production",
  options: { timeoutMs?: number } = {},
): Promise<UtxoNetwork> {
  const rpc = utxoRpc(config.rpcUrl, options);
  const info = await rpc.call<{ chain: string }>("getblockchaininfo");
  // The one rule of every real adapter (lib/chain/assert-sandbox-network.ts): no sandbox on a main network.
  assertSandboxNetwork(mode, { kind: "utxo", currency, chain: info.chain });
  const net = NET_OF_CHAIN[info.chain];
  if (!net)
    throw new Error(
      `KASSA_${currency}_RPC_URL (${rpc.label}) is on chain "${info.chain}", which Kassa does not know`,
    );
  return {
    currency,
    network: UTXO_NETWORK_OF[currency],
    net,
    chain: info.chain,
    rpc,
    confirmations: { [currency]: config.confirmations ?? getCurrency(currency).confirmations },
  };
}

/** One holder's connection: made on first use, made again after it failed or was forgotten. */
export type UtxoNetworkOnce = { get: () => Promise<UtxoNetwork>; forget: () => void };

/**
 * A connection held by the watcher: connected once and reused, connected again after a failure or
 * a `forget`, so a node that was down comes back without a restart; `onConnect` hears of each new
 * connection (the watcher opens the coin in the offering).
 */
export function utxoNetworkOnce(
  currency: UtxoCoin,
  config: UtxoConfig,
  mode: "sandbox" | "production",
  onConnect?: (network: UtxoNetwork) => void,
): UtxoNetworkOnce {
  let network: Promise<UtxoNetwork> | undefined;
  const forget = () => {
    network = undefined;
  };
  const get = () => {
    network ??= connectUtxoNetwork(currency, config, mode).then(
      (connected) => {
        onConnect?.(connected);
        return connected;
      },
      (error) => {
        forget();
        throw error;
      },
    );
    return network;
  };
  return { get, forget };
}
