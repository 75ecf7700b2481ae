import "server-only";

import { createPublicClient, http, type PublicClient, parseAbi } from "viem";
import { assertSandboxNetwork } from "@/lib/chain/assert-sandbox-network";
import type { EvmConfig } from "@/lib/config";
import { getCurrency } from "@/lib/currencies/registry";

export const EVM_NETWORK = "ethereum";
export const EVM_CURRENCIES = ["ETH", "USDTE", "USDC"] as const;
export const EVM_TOKEN_CURRENCIES = ["USDTE", "USDC"] as const;

const DECIMALS_ABI = parseAbi(["function decimals() view returns (uint8)"]);

export type EvmToken = { currency: string; address: `0x${string}`; decimals: number };

/** A connected EVM node with what Kassa reads from it once: the chain id and each token's decimals. */
export type EvmNetwork = {
  network: typeof EVM_NETWORK;
  chainId: number;
  client: PublicClient;
  tokens: EvmToken[];
  /** Confirmations required per currency code (KASSA_EVM_CONFIRMATIONS, or the registry's). */
  confirmations: Record<string, number>;
};

/** The token contracts to watch: the configured ones, and on mainnet (chain id 1) the registry's for the rest. */
export function tokenContracts(
  config: EvmConfig,
  chainId: number,
): { currency: string; address: `0x${string}` }[] {
  return EVM_TOKEN_CURRENCIES.flatMap((currency) => {
    const address = config.tokens[currency] ?? (chainId === 1 ? getCurrency(currency).contract : undefined);
    return address ? [{ currency, address: address as `0x${string}` }] : [];
  });
}

/**
 * Connects to the node named by KASSA_EVM_RPC_URL: reads the chain id from the node and each token's
 * decimals from its contract (a contract that does not answer is a configuration error, said at start).
 * In sandbox mode a main network is refused here (MainNetworkInSandboxError), the one place every
 * task, the payout adapter and the offering learn the chain id: none of them ever gets a connection.
 */
export async function connectEvmNetwork(config: EvmConfig): Promise<EvmNetwork> {
  const client = createPublicClient({ transport: http(config.rpcUrl, { timeout: 10_000, retryCount: 0 }) });
  const chainId = await client.getChainId();
  assertSandboxNetwork(config.mode ?? "sandbox", { kind: "evm", chainId });
  const tokens: EvmToken[] = [];
  for (const token of tokenContracts(config, chainId)) {
    let decimals: number;
    try {
      decimals = await client.readContract({
        address: token.address,
        abi: DECIMALS_ABI,
        functionName: "decimals",
      });
    } catch (error) {
      throw new Error(
        `KASSA_EVM_TOKENS: ${token.currency}=${token.address} does not answer decimals() on chain ${chainId}: ${(error as Error).message.split("\n")[0]}`,
      );
    }
    tokens.push({ ...token, address: token.address.toLowerCase() as `0x${string}`, decimals });
  }
  const confirmations: Record<string, number> = {};
  for (const code of ["ETH", ...tokens.map((t) => t.currency)])
    confirmations[code] = config.confirmations ?? getCurrency(code).confirmations;
  return { network: EVM_NETWORK, chainId, client: client as PublicClient, tokens, confirmations };
}

/** One holder's connection: made on first use, made again after it failed or was forgotten. */
export type EvmNetworkOnce = {
  get: () => Promise<EvmNetwork>;
  /** Drops the connection, so the next `get` connects again (after a pass that failed on the node). */
  forget: () => void;
};

/**
 * A connection to the node held by one task or adapter: connected once (chain id, token decimals) and
 * reused, connected again after a failed connection or a `forget`, so a node that was down comes back
 * without a restart. `onConnect` hears of each new connection (the watcher recomputes the offering).
 */
export function evmNetworkOnce(config: EvmConfig, onConnect?: (network: EvmNetwork) => void): EvmNetworkOnce {
  let network: Promise<EvmNetwork> | undefined;
  const forget = () => {
    network = undefined;
  };
  const get = () => {
    network ??= connectEvmNetwork(config).then(
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

/** The currencies this network carries, ETH first. */
export function evmCurrencies(network: EvmNetwork): string[] {
  return ["ETH", ...network.tokens.map((t) => t.currency)];
}
