import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import {
  type AnvilNode,
  deployToken,
  mineBlocks,
  payToken,
  startTestAnvil,
  testClientFor,
} from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

const TOKEN_UNITS_PER_LEDGER_UNIT = 100n;
const BACKLOG = 6;

describe(`a reorganisation during a long pass (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let usdt: Address;
  let merchantId: number;

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Long pass");
    network = await connectEvmNetwork({ rpcUrl: node.url, tokens: { USDTE: usdt }, confirmations: 2 });
    await watchEvmChain(database.db, { network, pricing });
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("finds a payment to an address handed out after the pass began, mined in the replacing chain", async () => {
    const test = testClientFor(node.url);
    const fork = await test.snapshot();
    await mineBlocks(node.url, BACKLOG);
    let invoice: Awaited<ReturnType<typeof createFixedInvoice>> | undefined;
    await watchEvmChain(database.db, {
      network,
      pricing,
      state: { range: 1n }, // one block per range: the pass is long
      onStored: async () => {
        if (invoice) return;
        // After the first range: the chain is replaced below the pass's tip, and in the new chain a
        // customer pays an address handed out after the pass loaded its watched addresses.
        await test.revert({ id: fork });
        invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
        await payToken(node.url, {
          token: usdt,
          to: invoice.address!.address,
          value: invoice.invoice.senderAmount! / TOKEN_UNITS_PER_LEDGER_UNIT,
        });
        await mineBlocks(node.url, BACKLOG - 1);
      },
    });
    expect((await loadInvoiceById(database.db, invoice!.id))!.status).not.toBe("pending");
    await mineBlocks(node.url, 2);
    await watchEvmChain(database.db, { network, pricing });
    expect((await loadInvoiceById(database.db, invoice!.id))!.status).toBe("confirmed");
  });
});
