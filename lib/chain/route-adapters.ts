import "server-only";

import { realNetworkOf } from "@/lib/currencies/offering";
import type { BroadcastRequest, ChainAdapter } from "./adapter";

/**
 * One adapter per currency (DESIGN.md section 5): a currency with a real adapter (ETH, USDTE and
 * USDC on the EVM node, BTC and LTC on their nodes) pays out there; any other goes to the sandbox chain in sandbox mode only.
 * In production a currency without a real adapter has no payout at all: withdrawals of it are
 * refused at creation (it is not offered), and one that reaches a job anyway fails loudly instead
 * of paying into a simulation.
 */
export function routeAdapters(input: {
  mode: "sandbox" | "production";
  sandbox: ChainAdapter;
  real: Record<string, ChainAdapter>;
}): ChainAdapter {
  const adapterFor = (currency: string): ChainAdapter => {
    const real = input.real[currency];
    if (real) return real;
    // A currency on a real network is never paid into the simulation, in either mode: a job whose
    // real adapter is missing (a process wired without it) fails loudly instead.
    if (input.mode === "sandbox" && realNetworkOf(currency) === null) return input.sandbox;
    throw new Error(
      `no real payout network is configured for ${currency}; production never uses the sandbox, nor does a real network`,
    );
  };
  return {
    broadcast: async (db, request, options) => adapterFor(request.currency).broadcast(db, request, options),
    lookUpBroadcast: async (db, request) => adapterFor(request.currency).lookUpBroadcast(db, request),
    checkFunds: async (db, request: BroadcastRequest) =>
      adapterFor(request.currency).checkFunds?.(db, request),
    batchOf: (currency) => adapterFor(currency).batchOf?.(currency),
  };
}
