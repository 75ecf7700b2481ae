import { afterAll, describe, expect, it } from "vitest";
import { type EvmNetwork, evmNetworkOnce } from "@/lib/chain/evm/evm-network";
import { type AnvilNode, freePort, startTestAnvil } from "../support/anvil";

const ANVIL_CHAIN_ID = 31_337;

/**
 * The connection the EVM tasks, the payout adapter and the metrics hold: made once and reused, made
 * again after a failed connection or a forget, each new one announced (the watcher reopens the
 * offering from it).
 */
describe("evmNetworkOnce", () => {
  let node: AnvilNode | undefined;
  afterAll(async () => {
    await node?.stop();
  });

  it("connects again after a node that was down comes up, reuses a connection, and reconnects after forget", async () => {
    const port = await freePort();
    const announced: EvmNetwork[] = [];
    const network = evmNetworkOnce(
      { rpcUrl: `http://127.0.0.1:${port}`, tokens: {}, confirmations: 2 },
      (connected) => announced.push(connected),
    );

    const down = network.get();
    await expect(down).rejects.toThrow();
    expect(announced).toEqual([]);

    node = await startTestAnvil({ port });
    const first = network.get();
    expect(first).not.toBe(down);
    const connected = await first;
    expect(connected.chainId).toBe(ANVIL_CHAIN_ID);
    expect(connected.confirmations).toEqual({ ETH: 2 });
    expect(network.get()).toBe(first);
    expect(announced).toEqual([connected]);

    network.forget();
    const again = await network.get();
    expect(again).not.toBe(connected);
    expect(again.chainId).toBe(ANVIL_CHAIN_ID);
    expect(announced).toEqual([connected, again]);
  });
});
