import { sql } from "drizzle-orm";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { runCliCommand } from "@/lib/cli/commands";
import { queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { expireInvoice } from "@/lib/invoices/expire-invoice";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { listBalances } from "@/lib/ledger/list-balances";
import { formatAmount, parseDecimal } from "@/lib/money";
import {
  type AnvilNode,
  deployToken,
  mineBlocks,
  payEth,
  payToken,
  payTokenBatch,
  reorg,
  startTestAnvil,
} from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";

const CONFIRMATIONS = 3;
const WEI_PER_LEDGER_UNIT = 10n ** 10n;
const TOKEN_UNITS_PER_LEDGER_UNIT = 100n;

describe(`EVM deposits on a real anvil node (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;
  let usdt: Address;
  let usdc: Address;

  const watch = () => watchEvmChain(database.db, { network, pricing });
  const balance = async (currency: string) =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === currency)?.balance ?? 0n;
  const reload = async (id: number) => (await loadInvoiceById(database.db, id))!;
  const depositsOf = (transactionId: number) =>
    queryRows<{ status: string; amount: string; base_amount: string; dust: string; log_index: number }>(
      database.db,
      sql`select d.status, d.amount::text, c.base_amount::text, c.dust::text, c.log_index
          from deposits d join chain_transactions c on c.id = d.chain_transaction_id
          where d.transaction_id = ${transactionId} order by d.id`,
    );

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    usdc = await deployToken(node.url, { symbol: "USDC", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Chain");
    network = await connectEvmNetwork({
      rpcUrl: node.url,
      tokens: { USDTE: usdt, USDC: usdc },
      confirmations: CONFIRMATIONS,
    });
    await watch(); // the watcher is running before any address is handed out
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("reads the chain id from the node and each token's decimals from its contract", () => {
    expect(network.chainId).toBe(31337);
    expect(network.tokens.map((t) => [t.currency, t.decimals])).toEqual([
      ["USDTE", 6],
      ["USDC", 6],
    ]);
    expect(network.confirmations).toEqual({ ETH: 3, USDTE: 3, USDC: 3 });
  });

  it("pays a USDT invoice exactly: processing from its block, confirmed after the confirmations", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
    const due = invoice.invoice.senderAmount!;
    const before = await balance("EUR");
    await payToken(node.url, {
      token: usdt,
      to: invoice.address!.address,
      value: due / TOKEN_UNITS_PER_LEDGER_UNIT,
    });
    await watch();
    expect((await reload(invoice.id)).status).toBe("processing");
    expect(await depositsOf(invoice.id)).toMatchObject([{ status: "seen", dust: "0" }]);

    await mineBlocks(node.url, CONFIRMATIONS - 2);
    await watch();
    expect((await reload(invoice.id)).status).toBe("processing"); // one confirmation short
    await mineBlocks(node.url, 1);
    const pass = await watch();
    expect(pass.credited).toBe(1);
    const settled = await reload(invoice.id);
    expect(settled.status).toBe("confirmed");
    expect(settled.invoice.statusReason).toBe("paid");
    expect(await balance("EUR")).toBeGreaterThan(before);
    await watch();
    expect(await depositsOf(invoice.id)).toMatchObject([{ status: "credited" }]);
  });

  it("keeps ETH amounts exactly in wei, rounds the ledger amount down once and records the dust", async () => {
    // No timer, so nothing to top up by: the short payment fails it as soon as it is credited.
    const under = await createFixedInvoice(database.db, merchantId, "ETH", { timer: false });
    const over = await createFixedInvoice(database.db, merchantId, "ETH");
    const half = (under.invoice.senderAmount! / 2n) * WEI_PER_LEDGER_UNIT + 12_345n;
    const more = (over.invoice.senderAmount! + parseDecimal("0.01")) * WEI_PER_LEDGER_UNIT;
    await payEth(node.url, { to: under.address!.address, value: half });
    await payEth(node.url, { to: over.address!.address, value: more });
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    expect(await depositsOf(under.id)).toMatchObject([
      {
        status: "credited",
        base_amount: half.toString(),
        dust: "12345",
        amount: formatAmount(half / WEI_PER_LEDGER_UNIT),
      },
    ]);
    expect((await reload(under.id)).status).toBe("failed");
    expect((await reload(under.id)).invoice.statusReason).toBe("underpaid");
    expect((await reload(over.id)).status).toBe("confirmed");
    expect((await reload(over.id)).invoice.statusReason).toBe("overpaid");
  });

  it("credits a payment that arrives after the invoice expired, flagged late", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "USDC");
    await inTransaction(database.db, async (tx) => {
      await tx.execute(
        sql`update invoices set expires_at = now() - interval '1 hour' where transaction_id = ${invoice.id}`,
      );
      await expireInvoice(tx, invoice.id);
    });
    expect((await reload(invoice.id)).status).toBe("failed");
    const before = await balance("EUR");
    await payToken(node.url, {
      token: usdc,
      to: invoice.address!.address,
      value: invoice.invoice.senderAmount! / TOKEN_UNITS_PER_LEDGER_UNIT,
    });
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    const [deposit] = await queryRows<{ status: string; is_late: boolean }>(
      database.db,
      sql`select status, is_late from deposits where transaction_id = ${invoice.id}`,
    );
    expect(deposit).toEqual({ status: "credited", is_late: true });
    expect(await balance("EUR")).toBeGreaterThan(before);
  });

  it("credits addresses/take deposits, converted and not", async () => {
    const plain = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "cust:1",
      currency: "USDC",
    });
    const converted = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "cust:1",
      currency: "ETH",
      convertTo: "EUR",
    });
    const usdcBefore = await balance("USDC");
    const eurBefore = await balance("EUR");
    await payToken(node.url, { token: usdc, to: plain.address, value: 250_000_000n }); // 250 USDC
    await payEth(node.url, { to: converted.address, value: 10n ** 18n }); // 1 ETH
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    // 0.5% deposit fee on 250 USDC
    expect((await balance("USDC")) - usdcBefore).toBe(parseDecimal("248.75"));
    const eur = (await balance("EUR")) - eurBefore;
    expect(eur > parseDecimal("2930") && eur < parseDecimal("2950")).toBe(true);
    const kinds = await queryRows<{ status: string }>(
      database.db,
      sql`select status from transactions where type = 'deposit' order by id`,
    );
    expect(kinds.map((k) => k.status)).toEqual(["confirmed", "confirmed"]);
  });

  it("credits both invoices a batched transaction pays (one Transfer log each)", async () => {
    const first = await createFixedInvoice(database.db, merchantId, "USDC");
    const second = await createFixedInvoice(database.db, merchantId, "USDC");
    const receipt = await payTokenBatch(node.url, {
      token: usdc,
      payments: [first, second].map((invoice) => ({
        to: invoice.address!.address,
        value: invoice.invoice.senderAmount! / TOKEN_UNITS_PER_LEDGER_UNIT,
      })),
    });
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    expect((await reload(first.id)).status).toBe("confirmed");
    expect((await reload(second.id)).status).toBe("confirmed");
    const rows = await queryRows<{ log_index: number }>(
      database.db,
      sql`select log_index from chain_transactions where txid = ${receipt.transactionHash} order by log_index`,
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]!.log_index).not.toBe(rows[1]!.log_index);
  });

  it("unwinds a payment whose block a reorganisation removes before its confirmations, crediting nothing", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
    const before = await balance("EUR");
    await payToken(node.url, {
      token: usdt,
      to: invoice.address!.address,
      value: invoice.invoice.senderAmount! / TOKEN_UNITS_PER_LEDGER_UNIT,
    });
    await watch();
    expect((await reload(invoice.id)).status).toBe("processing");
    const seen = await checkoutView(database.db, await reload(invoice.id), { pricing });
    expect(seen.payments).toMatchObject([{ confirmations: 1, is_confirmed: false, is_late: false }]);

    await reorg(node.url, 1);
    const pass = await watch();
    expect(pass.reorgs).toBe(1);
    const back = await reload(invoice.id);
    expect(back.status).toBe("pending");
    expect(back.invoice.statusReason).toBe("payment_removed");
    expect(back.invoice.paidAmount).toBe(0n);
    expect(await depositsOf(invoice.id)).toMatchObject([{ status: "unwound" }]);
    // The checkout no longer lists the removed payment: the customer sees the invoice waiting again.
    expect((await checkoutView(database.db, back, { pricing })).payments).toEqual([]);

    await mineBlocks(node.url, CONFIRMATIONS + 1);
    await watch();
    expect((await reload(invoice.id)).status).toBe("pending");
    expect(await balance("EUR")).toBe(before);
  });

  it("fails an invoice whose timer ran out while the payment a reorganisation removed was in flight", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
    await payToken(node.url, {
      token: usdt,
      to: invoice.address!.address,
      value: invoice.invoice.senderAmount! / TOKEN_UNITS_PER_LEDGER_UNIT,
    });
    await watch();
    expect((await reload(invoice.id)).status).toBe("processing");
    await database.db.execute(
      sql`update invoices set expires_at = now() - interval '1 hour' where transaction_id = ${invoice.id}`,
    );
    await reorg(node.url, 1);
    await watch();
    const failed = await reload(invoice.id);
    expect(failed.status).toBe("failed");
    expect(failed.invoice.statusReason).toBe("expired");
  });

  it("records an incident and changes no balance when a reorganisation removes a credited payment", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
    await payToken(node.url, {
      token: usdt,
      to: invoice.address!.address,
      value: invoice.invoice.senderAmount! / TOKEN_UNITS_PER_LEDGER_UNIT,
    });
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    expect((await reload(invoice.id)).status).toBe("confirmed");
    const before = await balance("EUR");

    await reorg(node.url, CONFIRMATIONS + 2);
    const pass = await watch();
    expect(pass.reorgs).toBe(1);
    const incidents = await queryRows<{ kind: string; message: string }>(
      database.db,
      sql`select kind, message from chain_incidents`,
    );
    expect(incidents).toHaveLength(1);
    expect(incidents[0]!.kind).toBe("credited_payment_removed");
    expect(await balance("EUR")).toBe(before);
    expect((await reload(invoice.id)).status).toBe("confirmed");
    await watch();
    expect(await queryRows(database.db, sql`select id from chain_incidents`)).toHaveLength(1);
    const listed = await runCliCommand(
      { name: "chain.incidents", args: {} },
      { db: database.db, box: database.box, isSandbox: true },
    );
    expect(listed.incidents).toMatchObject([{ network: "ethereum", kind: "credited_payment_removed" }]);
    expect(await ledgerInvariants(database.db)).toMatchObject({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });
});
