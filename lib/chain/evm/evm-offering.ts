import "server-only";

import { createPublicClient, http } from "viem";
import type { Config } from "@/lib/config";
import type { Offering } from "@/lib/currencies/offering";
import { EVM_NETWORK, tokenContracts } from "./evm-network";

/**
 * The offering of a configuration (lib/currencies/offering.ts): with KASSA_EVM_RPC_URL, Ethereum is
 * real and carries ETH and each token with a contract. The chain id is asked of the node (on chain
 * id 1 the registry's mainnet contracts count); a node that does not answer at start-up leaves the
 * configured contracts alone, and says so.
 */
export async function offeringFor(config: Config): Promise<Offering> {
  if (!config.evm)
    return {
      mode: config.mode,
      realNetworks: {},
      realCurrencies: [],
      contracts: {},
      chainIds: {},
      confirmations: {},
    };
  let chainId: number | undefined;
  try {
    chainId = await createPublicClient({
      transport: http(config.evm.rpcUrl, { timeout: 5_000, retryCount: 1 }),
    }).getChainId();
  } catch (error) {
    console.warn(
      `[chain] KASSA_EVM_RPC_URL did not answer at start (${(error as Error).message.split("\n")[0]}); offering the configured tokens only`,
    );
  }
  const tokens = tokenContracts(config.evm, chainId ?? 0);
  const realCurrencies = ["ETH", ...tokens.map((t) => t.currency)];
  const { confirmations } = config.evm;
  return {
    contracts: Object.fromEntries(tokens.map((t) => [t.currency, t.address])),
    chainIds: chainId === undefined ? {} : { [EVM_NETWORK]: chainId },
    confirmations:
      confirmations === undefined ? {} : Object.fromEntries(realCurrencies.map((c) => [c, confirmations])),
    mode: config.mode,
    realNetworks: { [EVM_NETWORK]: chainId === undefined ? "Ethereum" : `Ethereum (chain id ${chainId})` },
    realCurrencies,
  };
}
