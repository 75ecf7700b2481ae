import "server-only";

import type { ChainNet } from "@/lib/chain/address-codec";
import { currentOffering, type Offering, realNetworkOf } from "@/lib/currencies/offering";
import { findCurrency } from "@/lib/currencies/registry";

/**
 * Which address formats a currency uses here (DESIGN.md section 5). The sandbox chain uses testnet
 * formats (tb1…, tltc1…, bchtest:…, Dogecoin's n…), as the public API's sandbox does; a real network
 * uses its node's net (a Litecoin regtest node: rltc1…; EVM: mainnet), production mode mainnet. Without
 * a configured offering (unit tests, the browser) mainnet is assumed.
 */
export function depositNetOf(code: string, offering: Offering | undefined = currentOffering()): ChainNet {
  if (isOnSandboxChain(code, offering)) return "testnet";
  return realNetOf(code, offering);
}

/** The net of a real network's node (mainnet unless the offering says otherwise). */
function realNetOf(code: string, offering: Offering | undefined): ChainNet {
  const network = findCurrency(code)?.network;
  return (network && offering?.nets?.[network]) || "mainnet";
}

/**
 * The formats a withdrawal destination may have. Sandbox mode accepts testnet addresses and, as
 * well, mainnet ones: nothing real is ever sent there, deposit addresses handed out before the sandbox
 * used testnet formats stay stored and payable, and a client's fixtures written for production keep
 * working. Production accepts mainnet formats only; a testnet address is refused with a message
 * that names it.
 */
export function acceptedNetsOf(
  code: string,
  offering: Offering | undefined = currentOffering(),
): readonly ChainNet[] {
  return isOnSandboxChain(code, offering) ? ["testnet", "mainnet"] : [realNetOf(code, offering)];
}

/**
 * Whether a currency moves on the sandbox chain here (sandbox mode, no real adapter for its network):
 * its addresses are testnet ones, and the checkout and the dashboard label them "sandbox".
 */
export function isOnSandboxChain(code: string, offering: Offering | undefined = currentOffering()): boolean {
  return offering?.mode === "sandbox" && realNetworkOf(code, offering) === null;
}
