import { sql } from "drizzle-orm";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { type RemovedPayment, settleRemovedPayment } from "@/lib/chain/evm/settle-removed-payment";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { creditDeposit } from "@/lib/deposits/credit-deposit";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { listBalances } from "@/lib/ledger/list-balances";
import { type AnvilNode, deployToken, payToken, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

const TOKEN_UNITS_PER_LEDGER_UNIT = 100n;

/**
 * The race of a reorganisation with crediting, driven step by step: the reorganisation handler reads
 * a deposit as `seen`, another worker credits it, then the handler tries to unwind it.
 */
describe(`a reorganisation racing a credit (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;
  let usdt: Address;

  const watch = () => watchEvmChain(database.db, { network, pricing });
  const balance = async () =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === "EUR")?.balance ?? 0n;

  /** An invoice paid on the chain and seen by the watcher, with the row the reorganisation handler reads. */
  async function seenPayment(): Promise<{ invoiceId: number; removed: RemovedPayment }> {
    const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
    await payToken(node.url, {
      token: usdt,
      to: invoice.address!.address,
      value: invoice.invoice.senderAmount! / TOKEN_UNITS_PER_LEDGER_UNIT,
    });
    await watch();
    const [removed] = await queryRows<RemovedPayment>(
      database.db,
      sql`select c.id, c.txid, c.log_index, c.block_height, c.block_hash, d.id as deposit_id, d.status as deposit_status
          from deposits d join chain_transactions c on c.id = d.chain_transaction_id
          where d.transaction_id = ${invoice.id}`,
    );
    expect(removed!.deposit_status).toBe("seen");
    return { invoiceId: invoice.id, removed: removed! };
  }

  const markRemoved = (chainTransactionId: string | number) =>
    database.db.execute(
      sql`update chain_transactions set removed_at = now() where id = ${chainTransactionId}`,
    );

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Race");
    network = await connectEvmNetwork({ rpcUrl: node.url, tokens: { USDTE: usdt }, confirmations: 3 });
    await watch();
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("records an incident when the deposit read as seen was credited before the unwind", async () => {
    const { invoiceId, removed } = await seenPayment();
    // Another worker credits it after the handler's read (its removal is not committed yet).
    expect(await creditDeposit(database.db, { depositId: Number(removed.deposit_id), pricing })).toBe(true);
    const credited = await balance();
    const outcome = await inTransaction(database.db, async (tx) => {
      await tx.execute(sql`update chain_transactions set removed_at = now() where id = ${removed.id}`);
      return settleRemovedPayment(tx, { network: "ethereum", payment: removed });
    });
    expect(outcome).toBe("incident");
    const incidents = await queryRows<{ kind: string; deposit_id: string | number }>(
      database.db,
      sql`select kind, deposit_id from chain_incidents where deposit_id = ${removed.deposit_id}`,
    );
    expect(incidents).toMatchObject([{ kind: "credited_payment_removed" }]);
    expect(await balance()).toBe(credited);
    expect((await loadInvoiceById(database.db, invoiceId))!.status).toBe("confirmed");
  });

  it("never credits a deposit whose chain transaction a reorganisation removed", async () => {
    const { invoiceId, removed } = await seenPayment();
    const before = await balance();
    await markRemoved(removed.id);
    expect(await creditDeposit(database.db, { depositId: Number(removed.deposit_id), pricing })).toBe(false);
    const [deposit] = await queryRows<{ status: string }>(
      database.db,
      sql`select status from deposits where id = ${removed.deposit_id}`,
    );
    expect(deposit!.status).toBe("seen");
    expect(await balance()).toBe(before);
    expect((await loadInvoiceById(database.db, invoiceId))!.status).toBe("processing");
    // The handler then unwinds it as a payment that was only seen.
    const outcome = await inTransaction(database.db, (tx) =>
      settleRemovedPayment(tx, { network: "ethereum", payment: removed }),
    );
    expect(outcome).toBe("unwound");
    expect((await loadInvoiceById(database.db, invoiceId))!.status).toBe("pending");
  });

  it("records nothing for a deposit unwound meanwhile", async () => {
    const { removed } = await seenPayment();
    await markRemoved(removed.id);
    await inTransaction(database.db, (tx) =>
      settleRemovedPayment(tx, { network: "ethereum", payment: removed }),
    );
    const again = await inTransaction(database.db, (tx) =>
      settleRemovedPayment(tx, { network: "ethereum", payment: removed }),
    );
    expect(again).toBe("none");
    expect(
      await queryRows(
        database.db,
        sql`select id from chain_incidents where deposit_id = ${removed.deposit_id}`,
      ),
    ).toHaveLength(0);
  });
});
