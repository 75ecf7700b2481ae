import "server-only";

import { MainNetworkInSandboxError } from "@/lib/chain/assert-sandbox-network";
import type { Config, UtxoCoin } from "@/lib/config";
import { type Offering, replaceNetwork } from "@/lib/currencies/offering";
import { getCurrency } from "@/lib/currencies/registry";
import { connectUtxoNetwork, UTXO_NETWORK_OF, type UtxoNetwork } from "./utxo-network";

const CHAIN_NAMES: Record<string, string> = { main: "", test: " testnet", regtest: " regtest" };

/**
 * `offering` with one UTXO coin's part (lib/currencies/offering.ts): with its node configured, its
 * network is real. Connected, the coin is offered, on the net the node reported; not connected
 * (the node was down), it is not offered at all, in either mode: never silently the sandbox.
 */
export function withUtxoNetwork(
  offering: Offering,
  config: Pick<Config, "utxo">,
  currency: UtxoCoin,
  network: UtxoNetwork | null,
): Offering {
  const name = getCurrency(currency).name;
  const networkName = UTXO_NETWORK_OF[currency];
  const part: Offering = {
    mode: offering.mode,
    realNetworks: config.utxo[currency]
      ? { [networkName]: network ? `${name}${CHAIN_NAMES[network.chain] ?? ` ${network.chain}`}` : name }
      : {},
    realCurrencies: network ? [currency] : [],
    contracts: {},
    chainIds: {},
    decimals: {},
    confirmations: network && config.utxo[currency]?.confirmations !== undefined ? network.confirmations : {},
    nets: network ? { [networkName]: network.net } : {},
  };
  return replaceNetwork(offering, networkName, part);
}

/**
 * The offering at start-up with every configured UTXO node asked for its chain. A node that does not
 * answer leaves its coin closed, and says so; its watcher opens it when it connects. A mainnet node
 * in sandbox mode is a configuration error: start-up fails with it.
 */
export async function withUtxoOfferings(
  config: Pick<Config, "utxo" | "mode">,
  offering: Offering,
): Promise<Offering> {
  let result = offering;
  for (const currency of ["BTC", "LTC"] as const) {
    const utxo = config.utxo[currency];
    if (!utxo) continue;
    try {
      result = withUtxoNetwork(
        result,
        config,
        currency,
        await connectUtxoNetwork(currency, utxo, config.mode),
      );
    } catch (error) {
      if (error instanceof MainNetworkInSandboxError) throw error;
      console.warn(
        `[chain] KASSA_${currency}_RPC_URL did not answer at start (${(error as Error).message}); ${currency} is not offered until the watcher connects to it`,
      );
      result = withUtxoNetwork(result, config, currency, null);
    }
  }
  return result;
}
