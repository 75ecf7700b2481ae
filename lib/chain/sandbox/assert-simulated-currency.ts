import "server-only";

import { currentOffering, realNetworkOf } from "@/lib/currencies/offering";
import { fieldError } from "@/lib/errors";

/**
 * The sandbox chain simulates only currencies without a real network here: with the EVM adapter on,
 * ETH, USDTE and USDC are paid on that network, and a simulated payment of them would credit money
 * no chain holds. A field error (400) names the real network.
 */
export function assertSimulatedCurrency(code: string, offering = currentOffering()): void {
  const real = realNetworkOf(code, offering);
  if (real)
    throw fieldError({
      currency: `${code} moves on the real ${real} network here, not on the sandbox chain: pay it from a wallet on that network.`,
    });
}
