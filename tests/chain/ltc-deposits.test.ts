import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { connectUtxoNetwork, type UtxoNetwork } from "@/lib/chain/utxo/utxo-network";
import { withUtxoNetwork } from "@/lib/chain/utxo/utxo-offering";
import { watchUtxoChain } from "@/lib/chain/utxo/watch-utxo-chain";
import { configureOffering } from "@/lib/currencies/offering";
import { queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { expireInvoice } from "@/lib/invoices/expire-invoice";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { listBalances } from "@/lib/ledger/list-balances";
import { formatAmount, parseDecimal } from "@/lib/money";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import {
  doubleSpend,
  litoshiOf,
  NODE_START_MS,
  SANDBOX_OFFERING,
  startTestLitecoind,
  type TestLitecoind,
} from "../support/litecoind";
import { createTestMerchant } from "../support/merchants";

const CONFIRMATIONS = 3;

describe(`Litecoin deposits on a real litecoind in regtest (${testDriver})`, () => {
  let customer: TestLitecoind;
  let database: TestDatabase;
  let network: UtxoNetwork;
  let merchantId: number;

  const watch = () => watchUtxoChain(database.db, { network, pricing });
  const balance = async (currency: string) =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === currency)?.balance ?? 0n;
  const reload = async (id: number) => (await loadInvoiceById(database.db, id))!;
  const depositsOf = (transactionId: number) =>
    queryRows<{ status: string; amount: string; confirmations: number; txid: string; base_amount: string }>(
      database.db,
      sql`select d.status, d.amount::text, d.confirmations, c.txid, c.base_amount::text
          from deposits d join chain_transactions c on c.id = d.chain_transaction_id
          where d.transaction_id = ${transactionId} order by d.id`,
    );
  const coinsOf = (txid: string) =>
    queryRows<{
      vout: number;
      base_amount: string;
      address: string;
      derivation_path: string;
      status: string;
    }>(
      database.db,
      sql`select vout, base_amount::text, address, derivation_path, status from utxo_coins where txid = ${txid} order by vout`,
    );
  const pathOf = async (address: string) =>
    (
      await queryRows<{ derivation_path: string }>(
        database.db,
        sql`select derivation_path from deposit_addresses where address = ${address}`,
      )
    )[0]!.derivation_path;
  /** The output of `txid` paying `address`, as the node reports it: the test's own reading of the amount. */
  const paidTo = async (txid: string, address: string) => {
    const output = (await customer.transaction(txid)).vout.find(
      (o) => o.scriptPubKey.addresses?.[0] === address,
    )!;
    return { vout: output.n, litoshi: litoshiOf(output.value) };
  };

  beforeAll(async () => {
    customer = await startTestLitecoind();
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Litecoin");
    network = await connectUtxoNetwork(
      "LTC",
      { rpcUrl: customer.url, confirmations: CONFIRMATIONS },
      "sandbox",
    );
    // Addresses follow the node's net (regtest: rltc1…), as they do after start-up.
    configureOffering(
      withUtxoNetwork(
        SANDBOX_OFFERING,
        { utxo: { LTC: { rpcUrl: customer.url, confirmations: CONFIRMATIONS } } },
        "LTC",
        network,
      ),
    );
    await watch(); // the watcher runs before any address is handed out
  }, NODE_START_MS);
  afterAll(async () => {
    configureOffering(undefined);
    await database?.drop();
    await customer?.stop();
  });

  it("reads the network from the node and hands out regtest addresses the node accepts as its own format", async () => {
    expect(network.chain).toBe("regtest");
    expect(network.net).toBe("regtest");
    expect(network.confirmations).toEqual({ LTC: CONFIRMATIONS });
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const address = invoice.address!.address;
    expect(address).toMatch(/^rltc1q/);
    expect(await pathOf(address)).toMatch(/^m\/84'\/1'\/0'\/0\/\d+$/);
    const checked = await customer.rpc<{ isvalid: boolean; iswitness: boolean }>("validateaddress", [
      address,
    ]);
    expect(checked).toMatchObject({ isvalid: true, iswitness: true });
  });

  it("sees an exact payment in the mempool within one pass, credits it after the confirmations, and keeps its coin", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const address = invoice.address!.address;
    const due = invoice.invoice.senderAmount!; // 10^-8 LTC = litoshi
    const before = await balance("EUR");
    const txid = await customer.pay(address, due);
    await watch();
    expect((await reload(invoice.id)).status).toBe("processing");
    const paid = await paidTo(txid, address);
    expect(paid.litoshi).toBe(due);
    expect(await depositsOf(invoice.id)).toEqual([
      { status: "seen", amount: formatAmount(due), confirmations: 0, txid, base_amount: due.toString() },
    ]);
    expect(await coinsOf(txid)).toEqual([
      {
        vout: paid.vout,
        base_amount: due.toString(),
        address,
        derivation_path: await pathOf(address),
        status: "pending",
      },
    ]);

    await customer.mine(CONFIRMATIONS - 1);
    await watch();
    expect(await depositsOf(invoice.id)).toMatchObject([
      { status: "seen", confirmations: CONFIRMATIONS - 1 },
    ]);
    expect((await reload(invoice.id)).status).toBe("processing");
    expect((await coinsOf(txid))[0]!.status).toBe("pending");

    await customer.mine(1);
    const pass = await watch();
    expect(pass.credited).toBe(1);
    const settled = await reload(invoice.id);
    expect(settled.status).toBe("confirmed");
    expect(settled.invoice.statusReason).toBe("paid");
    expect(await balance("EUR")).toBeGreaterThan(before);
    expect((await coinsOf(txid))[0]!.status).toBe("spendable");
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  it("credits each invoice one transaction pays, and under- and over-payments exactly in litoshi", async () => {
    const exact = await createFixedInvoice(database.db, merchantId, "LTC");
    const under = await createFixedInvoice(database.db, merchantId, "LTC", { timer: false });
    const over = await createFixedInvoice(database.db, merchantId, "LTC");
    const half = exact.invoice.senderAmount! / 2n + 1n;
    const more = over.invoice.senderAmount! + parseDecimal("0.01");
    const txid = await customer.payMany({
      [exact.address!.address]: exact.invoice.senderAmount!,
      [under.address!.address]: half,
      [over.address!.address]: more,
    });
    await watch();
    for (const invoice of [exact, under, over]) expect((await reload(invoice.id)).status).toBe("processing");
    await customer.mine(CONFIRMATIONS);
    const pass = await watch();
    expect(pass.credited).toBe(3);
    expect((await reload(exact.id)).invoice.statusReason).toBe("paid");
    expect((await reload(under.id)).status).toBe("failed");
    expect((await reload(under.id)).invoice.statusReason).toBe("underpaid");
    expect((await reload(over.id)).status).toBe("confirmed");
    expect((await reload(over.id)).invoice.statusReason).toBe("overpaid");
    const coins = await coinsOf(txid);
    expect(coins).toHaveLength(3);
    for (const [invoice, litoshi] of [
      [under, half],
      [over, more],
    ] as const) {
      const paid = await paidTo(txid, invoice.address!.address);
      expect(paid.litoshi).toBe(litoshi);
      expect(await depositsOf(invoice.id)).toMatchObject([
        { status: "credited", base_amount: litoshi.toString() },
      ]);
    }
    expect(coins.every((c) => c.status === "spendable")).toBe(true);
  });

  it("credits a payment that arrives after the invoice expired, flagged late", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    await inTransaction(database.db, async (tx) => {
      await tx.execute(
        sql`update invoices set expires_at = now() - interval '1 hour' where transaction_id = ${invoice.id}`,
      );
      await expireInvoice(tx, invoice.id);
    });
    const before = await balance("EUR");
    await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
    await customer.mine(CONFIRMATIONS);
    await watch();
    const [deposit] = await queryRows<{ status: string; is_late: boolean }>(
      database.db,
      sql`select status, is_late from deposits where transaction_id = ${invoice.id}`,
    );
    expect(deposit).toEqual({ status: "credited", is_late: true });
    expect(await balance("EUR")).toBeGreaterThan(before);
  });

  it("credits addresses/take deposits and holds one below the minimum", async () => {
    const permanent = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "ltc:1",
      currency: "LTC",
    });
    expect(permanent.address).toMatch(/^rltc1q/);
    const before = await balance("LTC");
    await customer.pay(permanent.address, parseDecimal("2"));
    await customer.pay(permanent.address, parseDecimal("0.001")); // LTC's minimum deposit is 0.01
    await watch();
    await customer.mine(CONFIRMATIONS);
    await watch();
    // 0.5% deposit fee on 2 LTC; the 0.001 below the minimum is held, not credited.
    expect((await balance("LTC")) - before).toBe(parseDecimal("1.99"));
    const kinds = await queryRows<{ status: string }>(
      database.db,
      sql`select status from transactions where type = 'deposit' order by id`,
    );
    expect(kinds.map((k) => k.status).sort()).toEqual(["below_minimum", "confirmed"]);
  });

  it("returns a payment whose block a reorganisation removed to unconfirmed while it is back in the mempool", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const txid = await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
    const [block] = await customer.mine(1);
    await watch();
    expect(await depositsOf(invoice.id)).toMatchObject([{ status: "seen", confirmations: 1 }]);

    await customer.rpc("invalidateblock", [block]);
    const pass = await watch();
    expect(pass.reorgs).toBe(1);
    expect(await customer.rpc<string[]>("getrawmempool")).toContain(txid);
    expect(await depositsOf(invoice.id)).toMatchObject([{ status: "seen", confirmations: 0 }]);
    expect((await reload(invoice.id)).status).toBe("processing");
    const [row] = await queryRows<{ block_height: number | null }>(
      database.db,
      sql`select block_height from chain_transactions where txid = ${txid}`,
    );
    expect(row!.block_height).toBeNull();

    await customer.rpc("reconsiderblock", [block]);
    await customer.mine(CONFIRMATIONS - 1);
    await watch();
    expect((await reload(invoice.id)).status).toBe("confirmed");
    expect(await depositsOf(invoice.id)).toMatchObject([{ status: "credited", txid }]);
  });

  it("follows a reorganisation to a longer chain that mines the payment again in another block", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const txid = await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
    const [block] = await customer.mine(1);
    await watch();
    await customer.rpc("invalidateblock", [block]);
    const [replacement] = await customer.mine(2); // the payment again, in the first block of the new chain
    expect(replacement).not.toBe(block);
    const pass = await watch();
    expect(pass.reorgs).toBe(1);
    const [row] = await queryRows<{ block_hash: string; removed: boolean }>(
      database.db,
      sql`select block_hash, removed_at is not null as removed from chain_transactions where txid = ${txid}`,
    );
    expect(row).toEqual({ block_hash: replacement, removed: false });
    expect(await depositsOf(invoice.id)).toMatchObject([{ status: "seen", confirmations: 2 }]);
    await customer.mine(CONFIRMATIONS - 2);
    await watch();
    expect((await reload(invoice.id)).status).toBe("confirmed");
  });

  it("unwinds an unconfirmed payment a double spend replaced, and credits the replacement that pays again", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const before = await balance("EUR");
    const first = await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
    await watch();
    expect((await reload(invoice.id)).status).toBe("processing");

    await doubleSpend(customer, first);
    const pass = await watch();
    expect(pass.dropped).toBe(1);
    expect(await depositsOf(invoice.id)).toMatchObject([{ status: "unwound", txid: first }]);
    const back = await reload(invoice.id);
    expect(back.status).toBe("pending");
    expect(back.invoice.paidAmount).toBe(0n);
    expect((await coinsOf(first))[0]!.status).toBe("removed");

    // The customer pays again and bumps the fee (bumpfee keeps the payment, under a new txid).
    const second = await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
    await watch();
    const bumped = (await customer.rpc<{ txid: string }>("bumpfee", [second])).txid;
    await watch();
    await customer.mine(CONFIRMATIONS);
    await watch();
    const deposits = await depositsOf(invoice.id);
    expect(deposits.map((d) => [d.txid, d.status])).toEqual([
      [first, "unwound"],
      [second, "unwound"],
      [bumped, "credited"],
    ]);
    expect((await reload(invoice.id)).status).toBe("confirmed");
    expect(await balance("EUR")).toBeGreaterThan(before);
  });

  it("records an incident and changes no balance when a reorganisation removes a credited payment", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const txid = await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
    const [block] = await customer.mine(CONFIRMATIONS);
    await watch();
    expect((await reload(invoice.id)).status).toBe("confirmed");
    const before = await balance("EUR");

    await customer.rpc("invalidateblock", [block]);
    const pass = await watch();
    expect(pass.reorgs).toBe(1);
    const incidents = await queryRows<{ kind: string; message: string }>(
      database.db,
      sql`select kind, message from chain_incidents where network = 'litecoin'`,
    );
    expect(incidents).toMatchObject([{ kind: "credited_payment_removed" }]);
    expect(incidents[0]!.message).toContain(txid);
    expect(await balance("EUR")).toBe(before);
    expect((await reload(invoice.id)).status).toBe("confirmed");
    // The node put it back in its mempool: known again, in no block, until it is mined again.
    const [row] = await queryRows<{ block_height: number | null; removed: boolean }>(
      database.db,
      sql`select block_height, removed_at is not null as removed from chain_transactions where txid = ${txid}`,
    );
    expect(row).toEqual({ block_height: null, removed: false });

    // Mined again: the coin is back, and nothing is credited twice.
    await customer.mine(CONFIRMATIONS);
    await watch();
    expect(await balance("EUR")).toBe(before);
    expect(await depositsOf(invoice.id)).toMatchObject([{ status: "credited" }]);
    expect((await coinsOf(txid))[0]!.status).toBe("spendable");
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });
});
