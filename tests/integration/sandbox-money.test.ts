import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { deriveAddress } from "@/lib/chain/derivation";
import { offeringOf } from "@/lib/chain/evm/evm-offering";
import { routeAdapters } from "@/lib/chain/route-adapters";
import { mineDueSandboxBlocks, mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { withUtxoNetwork } from "@/lib/chain/utxo/utxo-offering";
import { utxoRpc } from "@/lib/chain/utxo/utxo-rpc";
import { configureOffering } from "@/lib/currencies/offering";
import { chainTransactions } from "@/lib/db/schema";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { seedDemoMerchant } from "@/lib/seed/seed-demo";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing, testKeys } from "../support/invoices";
import { createTestMerchant, fieldsOf } from "../support/merchants";

/**
 * Sandbox money of a currency whose network is real here would be paid out from the real hot wallet:
 * with the EVM adapter on (its node up or not yet answering), neither the demo seed nor a sandbox
 * credit makes any ETH, USDTE or USDC.
 */
describe(`sandbox money beside a real chain on ${testDriver}`, () => {
  let database: TestDatabase;
  let dataDir: string;
  const evm = { rpcUrl: "http://127.0.0.1:9", tokens: {}, confirmations: 2 };
  // The node has not answered: Ethereum is real, its currencies closed (lib/chain/evm/evm-offering.ts).
  const realEthereum = offeringOf({ mode: "sandbox", evm }, null);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-seed-"));
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  });
  afterEach(() => configureOffering(undefined));

  it("seeds the demo merchant with simulated currencies only", async () => {
    const demo = await seedDemoMerchant(database.db, database.box, dataDir, realEthereum);
    const balances = await listBalances(database.db, demo!.merchant_id);
    const held = Object.fromEntries(
      balances.filter((b) => b.balance > 0n).map((b) => [b.currency, b.balance]),
    );
    expect(held).toEqual({ BTC: 150_000_000n, USDTT: 2_500_000_000_000n, EUR: 1_000_000_000_000n });
  });

  it("refuses a sandbox credit of a real network's currency, and still credits a simulated one", async () => {
    const merchantId = await createTestMerchant(database, "Real Chain Shop");
    const credit = (currency: string) =>
      creditSandboxBalance(database.db, {
        merchantId,
        currency,
        amount: 100_000_000n,
        isSandbox: true,
        offering: realEthereum,
      });
    for (const currency of ["ETH", "USDC", "USDTE"])
      expect((await fieldsOf(credit(currency))).currency).toContain("real Ethereum network");
    expect((await credit("LTC")).balance).toBe(100_000_000n);
    const balances = await listBalances(database.db, merchantId);
    expect(balances.filter((b) => b.balance > 0n).map((b) => b.currency)).toEqual(["LTC"]);
  });

  it("neither pays nor mines a real network's currency on the sandbox chain while its node has not answered", async () => {
    const merchantId = await createTestMerchant(database, "Late Node Shop");
    // Handed out while the node answered: a deposit address on the real Ethereum network.
    configureOffering({ ...realEthereum, realCurrencies: ["ETH"], chainIds: { ethereum: 31337 } });
    const { address } = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "late-node-customer",
      currency: "ETH",
    });
    configureOffering(realEthereum);
    const pay = sendSandboxPayment(database.db, { currency: "ETH", address, amount: 100_000_000n });
    expect((await fieldsOf(pay)).currency).toContain("real Ethereum network");
    const mine = mineSandboxBlocks(database.db, { currency: "ETH", count: 12 });
    expect((await fieldsOf(mine)).currency).toContain("real Ethereum network");
    // A real payment the watcher saw before the node stopped answering: its blocks come from that
    // network, never from the sandbox timer.
    await database.db.insert(chainTransactions).values({
      currency: "ETH",
      txid: `0x${"ab".repeat(32)}`,
      address,
      tag: "",
      amount: 100_000_000n,
      direction: "in",
    });
    const mined = await mineDueSandboxBlocks(database.db, 0);
    expect(mined.map((block) => block.currency)).not.toContain("ETH");
    const balances = await listBalances(database.db, merchantId);
    expect(balances.filter((b) => b.balance > 0n)).toEqual([]);
  });

  it("a payout in a coin on a real node is accepted for that node, and never paid into the simulation", async () => {
    const merchantId = await createTestMerchant(database, "Litecoin Shop");
    // Sandbox LTC and BTC from before the node was configured.
    for (const currency of ["LTC", "BTC"])
      await creditSandboxBalance(database.db, {
        merchantId,
        currency,
        amount: 100_000_000n,
        isSandbox: true,
      });
    // A Litecoin node on regtest answered: LTC is offered, on the real network (no RPC call is made here).
    const ltcNode = { LTC: { rpcUrl: "http://user:pass@127.0.0.1:9", confirmations: undefined } };
    const node = {
      currency: "LTC" as const,
      network: "litecoin",
      net: "regtest" as const,
      chain: "regtest",
      rpc: utxoRpc(ltcNode.LTC.rpcUrl),
      confirmations: { LTC: 1 },
    };
    configureOffering(
      withUtxoNetwork(offeringOf({ mode: "sandbox", evm: undefined }, null), { utxo: ltcNode }, "LTC", node),
    );
    const withdraw = (body: Record<string, unknown>) =>
      createWithdrawal(
        database.db,
        withdrawalInput(
          merchantId,
          withdrawalRequest.parse({
            amount: "0.1",
            address: deriveAddress(testKeys, "litecoin", 7, "regtest").address,
            foreign_id: `ltc-${Math.random()}`,
            end_user_reference: "payee",
            sender_type: "legal",
            sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
            receiver_type: "self",
            ...body,
          }),
          pricing,
        ),
      );
    const ltc = await withdraw({ currency: "LTC" });
    expect(ltc.status).toBe("processing");
    const balances = await listBalances(database.db, merchantId);
    const ltcBalance = balances.find((b) => b.currency === "LTC")!.balance;
    // 0.1 LTC and its fees left the balance; nothing else moved.
    expect(ltcBalance).toBeLessThanOrEqual(100_000_000n - 10_000_000n);
    expect(balances.find((b) => b.currency === "BTC")!.balance).toBe(100_000_000n);
    // The payout goes to the LTC node's adapter; without one it is never paid into the simulation.
    // A payout that reached a job anyway is never paid into the simulation.
    const sandbox = {
      broadcast: async () => ({ isAccepted: true as const, txid: "simulated", chainTransactionId: null }),
      lookUpBroadcast: async () => ({ isBroadcast: false as const }),
    };
    const adapters = routeAdapters({ mode: "sandbox", sandbox, real: {} });
    const request = { reference: "withdrawal:1", currency: "LTC", address: "x", tag: null, amount: 1n };
    await expect(adapters.broadcast(database.db, request)).rejects.toThrow(/no real payout network/);
    expect(await adapters.broadcast(database.db, { ...request, currency: "DOGE" })).toMatchObject({
      txid: "simulated",
    });
  });
});
