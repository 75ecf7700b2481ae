import { createPublicClient, http } from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { chainTips } from "@/lib/db/schema";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { type AnvilNode, mineBlocks, payEth, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

const WEI_PER_LEDGER_UNIT = 10n ** 10n;

/**
 * transactions/info reports a real-chain payment's confirmations as the node counts them, not
 * against the sandbox's own block height for that currency (which an installation that once ran
 * sandbox ETH still has).
 */
describe(`transactions/info for a payment on a real anvil node (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;

  beforeAll(async () => {
    node = await startTestAnvil();
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Chain info");
    network = await connectEvmNetwork({ rpcUrl: node.url, tokens: {}, confirmations: 5 });
    await watchEvmChain(database.db, { network, pricing });
    // A stale sandbox tip far above the node's height.
    await database.db.insert(chainTips).values({ currency: "ETH", height: 1_000 });
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("counts confirmations from the node's blocks, in transactions/info and on the live checkout", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "ETH");
    const receipt = await payEth(node.url, {
      to: invoice.address!.address,
      value: invoice.invoice.senderAmount! * WEI_PER_LEDGER_UNIT,
    });
    const nodeCount = async () =>
      String(
        (await createPublicClient({ chain: foundry, transport: http(node.url) }).getBlockNumber()) -
          receipt.blockNumber +
          1n,
      );
    const reported = async () => {
      const info = await describeTransaction(database.db, invoice.id);
      const payment = info.transactions.find((t) => t.type === "deposit");
      return payment?.confirmations;
    };
    // What the live checkout shows of the same payment.
    const shown = async () => {
      const record = await loadInvoiceById(database.db, invoice.id);
      return (await checkoutView(database.db, record!, { pricing })).payments[0]?.confirmations;
    };

    await watchEvmChain(database.db, { network, pricing });
    expect(await reported()).toBe(await nodeCount());
    expect(await reported()).toBe("1");
    expect(await shown()).toBe(1);
    await mineBlocks(node.url, 2);
    await watchEvmChain(database.db, { network, pricing });
    expect(await reported()).toBe(await nodeCount());
    expect(await reported()).toBe("3");
    expect(await shown()).toBe(3);
  });
});
