import "server-only";

import { ConfigError } from "@/lib/config";

/**
 * What a node says about the network it is on: an EVM node its chain id (`eth_chainId`), a Bitcoin
 * Core-compatible node its chain (`getblockchaininfo().chain`: "main", "test", "testnet4", "signet",
 * "regtest").
 */
export type NetworkIdentity =
  | { kind: "evm"; chainId: number }
  | { kind: "utxo"; currency: string; chain: string };

/**
 * EVM networks where coins are money: Ethereum, and the best-known others (OP, BNB, Gnosis,
 * Polygon, Base, Arbitrum One, Avalanche C-Chain), in case a URL points at one of them by mistake.
 */
const EVM_MAIN_NETWORKS = new Set([1, 10, 56, 100, 137, 8453, 42161, 43114]);

/**
 * A main network in sandbox mode: sandbox credits, the demo seed and prices any merchant can edit
 * would be paid out from a hot wallet holding real money. Extends ConfigError, so a start refuses
 * with this message (lib/host/run-engine-action.ts) rather than a stack trace.
 */
export class MainNetworkInSandboxError extends ConfigError {}

export function isMainNetwork(network: NetworkIdentity): boolean {
  return network.kind === "evm" ? EVM_MAIN_NETWORKS.has(network.chainId) : network.chain === "main";
}

/**
 * The one rule every real chain adapter applies when it first learns which network its node is on
 * (at start, or when a node that was down then first answers): sandbox mode never runs against a
 * main network. Throws MainNetworkInSandboxError; production mode accepts any network.
 */
export function assertSandboxNetwork(mode: "sandbox" | "production", network: NetworkIdentity): void {
  if (mode !== "sandbox" || !isMainNetwork(network)) return;
  const [what, variable] =
    network.kind === "evm"
      ? [`an EVM main network (chain id ${network.chainId})`, "KASSA_EVM_RPC_URL"]
      : [`${network.currency}'s main network`, `KASSA_${network.currency}_RPC_URL`];
  throw new MainNetworkInSandboxError(
    `Sandbox mode refuses to run against ${what}: sandbox credits and editable prices would be paid out in real money. ` +
      `Point ${variable} at a test network or a local node, or set KASSA_MODE=production.`,
  );
}
