import type { ChainNet } from "@/lib/chain/address-codec";
import { findCurrency } from "./registry";

/**
 * Which currencies this installation offers (DESIGN.md section 5). Production mode never uses the
 * sandbox chain, so there a crypto currency is offered only when its network has a real adapter
 * (and, for a token, a contract); in sandbox mode every currency is offered, but one whose network
 * is real is paid on that network, never through the sandbox endpoints.
 */
export type Offering = {
  mode: "sandbox" | "production";
  /** Networks with a real adapter turned on, with the name customers and clients see. */
  realNetworks: Record<string, string>;
  /** The currency codes the real adapters carry (ETH, and the tokens that have a contract). */
  realCurrencies: readonly string[];
  /** Token contracts per currency code on the real networks (KASSA_EVM_TOKENS), for payment URIs. */
  contracts: Record<string, string>;
  /** EIP-155 chain id per real EVM network, for payment URIs (absent while its node has not answered). */
  chainIds: Record<string, number>;
  /** Decimals per token currency as its contract says (payment URIs count in its base units). */
  decimals: Record<string, number>;
  /** Confirmations required per currency where the configuration overrides the registry's. */
  confirmations: Record<string, number>;
  /**
   * The address net of a real network whose node says it is not mainnet (a Litecoin node in
   * regtest hands out rltc1… addresses); a real network absent here uses mainnet formats.
   */
  nets?: Record<string, ChainNet>;
};

const SLOT = Symbol.for("kassa.offering");
type Slot = { [SLOT]?: Offering };

/**
 * Set at start-up, and again when the EVM watcher connects to a node that was down then (the server
 * and the worker share one process-wide value through globalThis); undefined offers everything.
 */
export function configureOffering(offering: Offering | undefined): void {
  (globalThis as Slot)[SLOT] = offering;
}

/** The offering configured at start-up; everything is offered when none was (tests, the browser). */
export function currentOffering(): Offering | undefined {
  return (globalThis as Slot)[SLOT];
}

/**
 * `offering` with everything of `network` taken from `part` instead: a watcher that connects to its
 * node (or a chain configured at start) updates its own network and leaves the others as they are.
 */
export function replaceNetwork(offering: Offering, network: string, part: Offering): Offering {
  // Keys are network names (realNetworks, chainIds, nets) or currency codes (the rest).
  const isOurs = (key: string) => key === network || findCurrency(key)?.network === network;
  const merge = <T>(base: Record<string, T>, extra: Record<string, T>) => ({
    ...Object.fromEntries(Object.entries(base).filter(([key]) => !isOurs(key))),
    ...Object.fromEntries(Object.entries(extra).filter(([key]) => isOurs(key))),
  });
  return {
    mode: offering.mode,
    realNetworks: merge(offering.realNetworks, part.realNetworks),
    realCurrencies: [
      ...offering.realCurrencies.filter((c) => !isOurs(c)),
      ...part.realCurrencies.filter(isOurs),
    ],
    contracts: merge(offering.contracts, part.contracts),
    chainIds: merge(offering.chainIds, part.chainIds),
    decimals: merge(offering.decimals, part.decimals),
    confirmations: merge(offering.confirmations, part.confirmations),
    nets: merge(offering.nets ?? {}, part.nets ?? {}),
  };
}

/**
 * The real network a currency moves on here ("Ethereum (chain id 31337)"), or null when it is
 * simulated (on the sandbox chain). A network with a real adapter turned on is real whether its node
 * has answered or not, and for every currency of it, carried or not (a token without a contract):
 * sandbox money of such a currency, paid, mined or credited, could be exchanged or paid out from the
 * real hot wallet, so the sandbox never makes any.
 */
export function realNetworkOf(code: string, offering = currentOffering()): string | null {
  const currency = findCurrency(code);
  if (!offering || !currency?.network) return null;
  return offering.realNetworks[currency.network] ?? null;
}

/**
 * Whether a currency code is offered: fiat always; crypto on a real network only when its adapter
 * carries it (a token with no contract is not offered); crypto on a simulated network only in
 * sandbox mode.
 */
export function isOffered(code: string, offering = currentOffering()): boolean {
  const currency = findCurrency(code);
  if (!currency) return false;
  if (!offering || currency.kind !== "crypto" || !currency.network) return true;
  if (offering.realNetworks[currency.network] !== undefined)
    return offering.realCurrencies.includes(currency.code);
  return offering.mode === "sandbox";
}

/**
 * The chain id a payment request on an EVM network names: the real node's; null when the network is
 * real but its node has not answered yet (never guessed); mainnet's for a simulated network.
 */
export function chainIdOf(network: string, offering = currentOffering()): number | null {
  const chainId = offering?.chainIds[network];
  if (chainId !== undefined) return chainId;
  return offering?.realNetworks[network] !== undefined ? null : 1;
}

/** The confirmations a payment in `code` needs here (KASSA_<CHAIN>_CONFIRMATIONS, or the registry's). */
export function confirmationsOf(code: string, offering = currentOffering()): number {
  return offering?.confirmations[code] ?? findCurrency(code)?.confirmations ?? 0;
}

/** The token contract a payment request names: the watched one here, or the registry's mainnet one. */
export function contractOf(code: string, offering = currentOffering()): string | undefined {
  return offering?.contracts[code] ?? findCurrency(code)?.contract;
}

/** A token's decimals for payment requests: its contract's here, or the registry's (mainnet's) one. */
export function tokenDecimalsOf(code: string, offering = currentOffering()): number {
  return offering?.decimals[code] ?? findCurrency(code)?.chainDecimals ?? 18;
}
