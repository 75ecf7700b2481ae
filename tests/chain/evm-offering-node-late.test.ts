import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offeringFor } from "@/lib/chain/evm/evm-offering";
import { evmWatcherTask } from "@/lib/chain/evm/evm-watcher-task";
import { paymentUri } from "@/lib/checkout/payment-uri";
import { chainIdOf, configureOffering, currentOffering, isOffered } from "@/lib/currencies/offering";
import { type AnvilNode, deployToken, freePort, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { pricing } from "../support/invoices";

const ADDRESS = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
/** The first contract anvil's first account deploys on a fresh chain (its address follows from account and nonce). */
const FIRST_CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";

describe("the EVM node down when Kassa computes its offering", () => {
  let node: AnvilNode | undefined;
  let database: TestDatabase;
  let rpcUrl: string;
  let port: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    port = await freePort();
    rpcUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    configureOffering(undefined);
    await database?.drop();
    await node?.stop();
  });

  it("offers no EVM currency and names no chain until the watcher connects, then opens them", async () => {
    const evm = { rpcUrl, tokens: { USDC: FIRST_CONTRACT as `0x${string}` }, confirmations: 2 };
    configureOffering(await offeringFor({ mode: "production", evm }));
    expect(["ETH", "USDC", "USDTE"].some((code) => isOffered(code))).toBe(false);
    expect(chainIdOf("ethereum")).toBeNull();
    expect(paymentUri({ currency: "ETH", address: ADDRESS, tag: "", amount: 100_000_000n })).toBe(ADDRESS);

    node = await startTestAnvil({ port });
    // A USDC stand-in with 18 decimals, where the registry's USDC has 6.
    const token = await deployToken(node.url, { symbol: "USDC", decimals: 18, supply: 10n ** 24n });
    expect(token.toLowerCase()).toBe(FIRST_CONTRACT);
    await evmWatcherTask({ config: evm, pricing }).run(database.db);

    expect(currentOffering()!.mode).toBe("production");
    expect(isOffered("ETH")).toBe(true);
    expect(isOffered("USDC")).toBe(true);
    expect(isOffered("USDTE")).toBe(false); // no contract configured on this chain
    expect(paymentUri({ currency: "ETH", address: ADDRESS, tag: "", amount: 100_000_000n })).toBe(
      `ethereum:${ADDRESS}@31337?value=1000000000000000000`,
    );
  });

  it("counts a token link's uint256 in the contract's decimals, not the registry's", () => {
    // 25 USDC with an 18-decimal contract: 25 × 10^18 base units.
    expect(paymentUri({ currency: "USDC", address: ADDRESS, tag: "", amount: 2_500_000_000n })).toBe(
      `ethereum:${FIRST_CONTRACT}@31337/transfer?address=${ADDRESS}&uint256=25000000000000000000`,
    );
  });
});
