import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AnvilNode,
  customer,
  deployToken,
  mineBlocks,
  payToken,
  reorg,
  startTestAnvil,
  TOKEN_ABI,
} from "../support/anvil";

let node: AnvilNode;
beforeAll(async () => {
  node = await startTestAnvil();
});
afterAll(async () => {
  await node?.stop();
});

describe("the anvil harness", () => {
  it("runs a node on chain id 31337 with a deployed 6-decimal token", async () => {
    expect(await node.publicClient.getChainId()).toBe(31337);
    const token = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 1_000_000_000n });
    const decimals = await node.publicClient.readContract({
      address: token,
      abi: TOKEN_ABI,
      functionName: "decimals",
    });
    expect(decimals).toBe(6);
    const balance = await node.publicClient.readContract({
      address: token,
      abi: TOKEN_ABI,
      functionName: "balanceOf",
      args: [customer.address],
    });
    expect(balance).toBe(1_000_000_000n);
  });

  it("anvil_reorg replaces the last blocks: a payment in them is gone", async () => {
    const token = await deployToken(node.url, { symbol: "USDC", decimals: 6, supply: 500n });
    const to = "0x00000000000000000000000000000000000000aa";
    const receipt = await payToken(node.url, { token, to, value: 200n });
    await mineBlocks(node.url, 1);
    const before = await node.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    await reorg(node.url, 2);
    const after = await node.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(after.hash).not.toBe(before.hash);
    const balance = await node.publicClient.readContract({
      address: token,
      abi: TOKEN_ABI,
      functionName: "balanceOf",
      args: [to],
    });
    expect(balance).toBe(0n);
  });
});
