import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offeringOf } from "@/lib/chain/evm/evm-offering";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { seedDemoMerchant } from "@/lib/seed/seed-demo";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
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
});
