import { sql } from "drizzle-orm";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { runCliCommand } from "@/lib/cli/commands";
import { queryRows } from "@/lib/db/client";
import { listBalances } from "@/lib/ledger/list-balances";
import { type AnvilNode, deployToken, mineBlocks, payEth, payToken, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing, testKeys } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

describe(`a transfer in a currency its address was not handed out for (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;
  let usdt: Address;
  let usdc: Address;

  const watch = () => watchEvmChain(database.db, { network, pricing });

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    usdc = await deployToken(node.url, { symbol: "USDC", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Unmatched");
    network = await connectEvmNetwork({
      rpcUrl: node.url,
      tokens: { USDTE: usdt, USDC: usdc },
      confirmations: 2,
    });
    await watch();
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("records an incident an operator sees, and credits nothing", async () => {
    const usdcAddress = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "c1",
      currency: "USDC",
    });
    const ethAddress = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "c2",
      currency: "ETH",
    });
    const usdtPayment = await payToken(node.url, { token: usdt, to: usdcAddress.address, value: 5_000_000n });
    const ethPayment = await payEth(node.url, { to: usdcAddress.address, value: 10n ** 16n });
    await payToken(node.url, { token: usdt, to: ethAddress.address, value: 7_000_000n });
    await mineBlocks(node.url, 3);
    await watch();
    await watch();

    const incidents = await queryRows<{ kind: string; deposit_id: string | null; message: string }>(
      database.db,
      sql`select kind, deposit_id, message from chain_incidents order by id`,
    );
    expect(incidents.map((i) => i.kind)).toEqual([
      "unmatched_currency",
      "unmatched_currency",
      "unmatched_currency",
    ]);
    expect(incidents.every((i) => i.deposit_id === null)).toBe(true);
    expect(incidents[0]!.message).toContain(usdtPayment.transactionHash);
    expect(incidents[0]!.message).toContain("handed out for USDC");
    expect(incidents[1]!.message).toContain(ethPayment.transactionHash);
    expect(await queryRows(database.db, sql`select id from deposits`)).toHaveLength(0);
    expect((await listBalances(database.db, merchantId)).every((b) => b.balance === 0n)).toBe(true);

    const listed = await runCliCommand(
      { name: "chain.incidents", args: {} },
      { db: database.db, box: database.box, isSandbox: true },
    );
    expect(listed.incidents).toHaveLength(3);
    expect(listed.incidents).toContainEqual(
      expect.objectContaining({ kind: "unmatched_currency", network: "ethereum" }),
    );
  });
});
