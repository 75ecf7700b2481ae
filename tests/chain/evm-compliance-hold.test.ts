import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { decideReview } from "@/lib/compliance/decide-review";
import { listScreeningProvider } from "@/lib/compliance/list-screening-provider";
import { queryRows } from "@/lib/db/client";
import { callbacks, chainTransactions, complianceReviews, deposits, transactions } from "@/lib/db/schema";
import { creditDeposit } from "@/lib/deposits/credit-deposit";
import { listBalances } from "@/lib/ledger/list-balances";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { type AnvilNode, customer, mineBlocks, payEth, reorg, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const WEI_PER_LEDGER_UNIT = 10n ** 10n;

describe(`a denylisted sender's ETH payment on the EVM chain (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;
  let denylist: string;

  const watch = () => watchEvmChain(database.db, { network, pricing });

  beforeAll(async () => {
    node = await startTestAnvil();
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Screened chain");
    await setCallbackUrl(database.db, { merchantId, url: "http://127.0.0.1:9/hook", mode: "sandbox" });
    // The operator's list names the customer's account in its checksummed (mixed-case) form.
    denylist = path.join(mkdtempSync(path.join(tmpdir(), "kassa-evm-screening-")), "denylist.txt");
    writeFileSync(denylist, `# sanctions\n${customer.address}\n`);
    process.env.KASSA_SCREENING_DENYLIST = denylist;
    network = await connectEvmNetwork({ rpcUrl: node.url, tokens: {}, confirmations: 2 });
    await watch();
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("records the sender from the block, holds the payment as verifying at score 100, and credits it once released", async () => {
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "c1",
      currency: "ETH",
    });
    await payEth(node.url, { to: address.address, value: 2_000_000n * WEI_PER_LEDGER_UNIT }); // 0.02 ETH
    await watch();
    const [seen] = await database.db
      .select({ sender: chainTransactions.senderAddress })
      .from(chainTransactions)
      .where(eq(chainTransactions.address, address.address));
    expect(seen!.sender).toBe(customer.address.toLowerCase());

    await mineBlocks(node.url, 2);
    await watch();
    const [deposit] = await database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.merchantId, merchantId), eq(transactions.type, "deposit")));
    const held = await describeTransaction(database.db, deposit!.id);
    expect(held.status).toBe("not_confirmed");
    expect(held.transactions[0]).toMatchObject({ transaction_type: "blockchain", riskscore: "100" });
    expect(
      (await listBalances(database.db, merchantId)).find((b) => b.currency === "ETH")?.balance ?? 0n,
    ).toBe(0n);
    // Watching on does not credit it: it is no longer waiting for confirmations.
    await mineBlocks(node.url, 1);
    await watch();
    const [row] = await database.db.select().from(deposits).where(eq(deposits.transactionId, deposit!.id));
    expect(row!.status).toBe("held");
    expect(
      await creditDeposit(database.db, {
        depositId: row!.id,
        pricing,
        screening: listScreeningProvider({
          denylistPath: undefined,
          allowlistPath: undefined,
          amountLimits: {},
          newCustomerLimits: {},
        }),
      }),
    ).toBe(false);

    const [review] = await database.db
      .select()
      .from(complianceReviews)
      .where(eq(complianceReviews.transactionId, deposit!.id));
    await decideReview(database.db, {
      merchantId,
      reviewId: review!.id,
      userId: null,
      decision: "release",
      audit: { actor: { kind: "cli" } },
      pricing,
    });
    expect((await describeTransaction(database.db, deposit!.id)).status).toBe("confirmed");
    // 0.02 ETH less the 0.5 % deposit fee.
    expect((await listBalances(database.db, merchantId)).find((b) => b.currency === "ETH")!.balance).toBe(
      2_000_000n - (2_000_000n * 5_000n) / 1_000_000n,
    );
    const events = await database.db
      .select({ event: callbacks.event })
      .from(callbacks)
      .where(eq(callbacks.transactionId, deposit!.id))
      .orderBy(asc(callbacks.id));
    expect(events.map((e) => e.event)).toEqual([
      "deposit.processing",
      "deposit.verifying",
      "deposit.confirmed",
    ]);
    expect((await ledgerInvariants(database.db)).nonZeroCurrencies).toEqual([]);
  });

  it("refuses to release a held payment whose block a deep reorganisation removed; rejecting it books nothing", async () => {
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "c2",
      currency: "ETH",
    });
    await payEth(node.url, { to: address.address, value: 1_000_000n * WEI_PER_LEDGER_UNIT }); // 0.01 ETH
    await mineBlocks(node.url, 2);
    await watch();
    const [row] = await database.db
      .select({ deposit: deposits, reviewId: complianceReviews.id })
      .from(deposits)
      .innerJoin(complianceReviews, eq(complianceReviews.depositId, deposits.id))
      .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
      .where(eq(chainTransactions.address, address.address));
    expect(row!.deposit.status).toBe("held");

    // Deeper than the 2 confirmations: the payment's block is gone.
    await reorg(node.url, 4);
    await watch();
    const decide = (decision: "release" | "reject") =>
      decideReview(database.db, {
        merchantId,
        reviewId: row!.reviewId,
        userId: null,
        decision,
        audit: { actor: { kind: "cli" } },
        pricing,
      });
    expect(await fieldsOf(decide("release"))).toEqual({
      id: "A reorganisation removed this payment's block from the chain: it cannot be credited. Reject it instead.",
    });
    await decide("reject");
    expect((await describeTransaction(database.db, row!.deposit.transactionId)).status).toBe("cancelled");
    const [held] = await database.db
      .select()
      .from(complianceReviews)
      .where(eq(complianceReviews.id, row!.reviewId));
    expect(held!.status).toBe("rejected");
    // No coins arrived, so nothing went to the held account.
    const [suspense] = await queryRows<{ n: string }>(
      database.db,
      sql`select count(*)::text as n from ledger_entries e join ledger_accounts a on a.id = e.account_id
          where a.kind = 'platform:compliance_held'`,
    );
    expect(suspense!.n).toBe("0");
    expect((await ledgerInvariants(database.db)).nonZeroCurrencies).toEqual([]);
    // Unwound, as a seen payment a reorganisation removed: `rejected` would claim coins were held.
    const entries = await database.db
      .select({ id: deposits.id })
      .from(deposits)
      .where(and(eq(deposits.id, row!.deposit.id), eq(deposits.status, "unwound")));
    expect(entries).toHaveLength(1);
  });
});
