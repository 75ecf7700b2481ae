import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { getCurrency } from "@/lib/currencies/registry";
import { queryRows } from "@/lib/db/client";
import { callbacks, transactions } from "@/lib/db/schema";
import { listBalances } from "@/lib/ledger/list-balances";
import { setBelowMinimumCallback } from "@/lib/merchants/set-below-minimum-callback";
import { parseDecimal } from "@/lib/money";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { type AnvilNode, mineBlocks, payEth, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing, testKeys } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

const WEI_PER_LEDGER_UNIT = 10n ** 10n;

describe(`an ETH deposit below the minimum, seen by the EVM watcher (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;

  const watch = () => watchEvmChain(database.db, { network, pricing });

  beforeAll(async () => {
    node = await startTestAnvil();
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Below minimum");
    await setCallbackUrl(database.db, { merchantId, url: "http://127.0.0.1:9/hook", mode: "sandbox" });
    await setBelowMinimumCallback(database.db, { merchantId, isOn: true });
    network = await connectEvmNetwork({ rpcUrl: node.url, tokens: {}, confirmations: 2 });
    await watch();
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("holds it in the suspense account when it confirms, and credits the ordinary deposit beside it", async () => {
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "c1",
      currency: "ETH",
    });
    const minimum = getCurrency("ETH").minimumAmount; // 0.005 ETH
    const small = (minimum - 1n) * WEI_PER_LEDGER_UNIT;
    await payEth(node.url, { to: address.address, value: small });
    await payEth(node.url, { to: address.address, value: minimum * WEI_PER_LEDGER_UNIT });
    await watch();
    const deposits = await database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.merchantId, merchantId), eq(transactions.type, "deposit")))
      .orderBy(asc(transactions.id));
    expect(deposits.map((d) => d.status)).toEqual(["below_minimum", "processing"]);
    const [held, ordinary] = deposits;
    const events = await database.db
      .select()
      .from(callbacks)
      .where(eq(callbacks.merchantId, merchantId))
      .orderBy(asc(callbacks.id));
    expect(events.map((c) => [c.transactionId, c.event])).toEqual([
      [held!.id, "deposit.below_minimum"],
      [ordinary!.id, "deposit.processing"],
    ]);

    await mineBlocks(node.url, 2);
    await watch();
    expect((await describeTransaction(database.db, ordinary!.id)).status).toBe("confirmed");
    expect(await describeTransaction(database.db, held!.id)).toMatchObject({
      status: "cancelled",
      error: "Transaction amount less than minimum deposit.",
      currency_sent: { currency: "ETH", amount: "0.00499999" },
    });
    // Only the ordinary deposit reaches the balance (less its 0.5 % fee); the small one is held.
    const eth = (await listBalances(database.db, merchantId)).find((b) => b.currency === "ETH")!.balance;
    expect(eth).toBe(minimum - (minimum * 5_000n) / 1_000_000n);
    const [suspense] = await queryRows<{ balance: string }>(
      database.db,
      sql`select balance::text as balance from ledger_accounts
          where merchant_id is null and kind = 'platform:below_minimum' and currency = 'ETH'`,
    );
    expect(parseDecimal(suspense!.balance)).toBe(minimum - 1n);
  });
});
