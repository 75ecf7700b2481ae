import "server-only";

import { MainNetworkInSandboxError } from "@/lib/chain/assert-sandbox-network";
import type { Config } from "@/lib/config";
import type { Offering } from "@/lib/currencies/offering";
import { connectEvmNetwork, EVM_NETWORK, type EvmNetwork, evmCurrencies } from "./evm-network";

/**
 * The offering of a configuration with the EVM node as Kassa knows it (lib/currencies/offering.ts):
 * with KASSA_EVM_RPC_URL, Ethereum is real. Connected (chain id and token contracts known), it
 * carries ETH and each token with a contract. Not connected, it carries nothing: a payment request
 * must name the node's chain id, and a guessed one (mainnet's) would send a customer's money to
 * another chain, so the EVM currencies stay closed until the node answers.
 */
export function offeringOf(config: Pick<Config, "mode" | "evm">, network: EvmNetwork | null): Offering {
  const none = { contracts: {}, chainIds: {}, confirmations: {}, decimals: {}, realCurrencies: [] };
  if (!config.evm) return { ...none, mode: config.mode, realNetworks: {} };
  if (!network) return { ...none, mode: config.mode, realNetworks: { [EVM_NETWORK]: "Ethereum" } };
  const { confirmations } = config.evm;
  const realCurrencies = evmCurrencies(network);
  return {
    mode: config.mode,
    realNetworks: { [EVM_NETWORK]: `Ethereum (chain id ${network.chainId})` },
    realCurrencies,
    contracts: Object.fromEntries(network.tokens.map((t) => [t.currency, t.address])),
    decimals: Object.fromEntries(network.tokens.map((t) => [t.currency, t.decimals])),
    chainIds: { [EVM_NETWORK]: network.chainId },
    confirmations:
      confirmations === undefined ? {} : Object.fromEntries(realCurrencies.map((c) => [c, confirmations])),
  };
}

/**
 * The offering at start-up: the node is asked for its chain id and token decimals. A node that does
 * not answer leaves the EVM currencies closed, and says so; the watcher recomputes the offering when
 * it connects (lib/chain/evm/evm-watcher-task.ts). A node on a main network in sandbox mode stops
 * the start (MainNetworkInSandboxError).
 */
export async function offeringFor(config: Pick<Config, "mode" | "evm">): Promise<Offering> {
  if (!config.evm) return offeringOf(config, null);
  try {
    return offeringOf(config, await connectEvmNetwork({ ...config.evm, mode: config.mode }));
  } catch (error) {
    if (error instanceof MainNetworkInSandboxError) throw error;
    console.warn(
      `[chain] KASSA_EVM_RPC_URL did not answer at start (${(error as Error).message.split("\n")[0]}); ETH, USDTE and USDC are not offered until the watcher connects to it`,
    );
    return offeringOf(config, null);
  }
}
