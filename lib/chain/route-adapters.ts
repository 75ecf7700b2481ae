import "server-only";

import type { BroadcastRequest, ChainAdapter } from "./adapter";

/**
 * One adapter per currency (DESIGN.md section 5): a currency with a real adapter (ETH, USDTE and
 * USDC on the EVM node) pays out there; any other goes to the sandbox chain in sandbox mode only.
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
    if (input.mode === "sandbox") return input.sandbox;
    throw new Error(
      `no real payout network is configured for ${currency}; production never uses the sandbox`,
    );
  };
  return {
    broadcast: async (db, request, options) => adapterFor(request.currency).broadcast(db, request, options),
    lookUpBroadcast: async (db, request) => adapterFor(request.currency).lookUpBroadcast(db, request),
    checkFunds: async (db, request: BroadcastRequest) =>
      adapterFor(request.currency).checkFunds?.(db, request),
  };
}
