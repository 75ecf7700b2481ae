import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { listCurrencies } from "@/lib/currencies/list-currencies";
import { configureOffering, type Offering } from "@/lib/currencies/offering";
import { CURRENCIES } from "@/lib/currencies/registry";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing, testKeys } from "../support/invoices";
import { createTestMerchant, fieldsOf } from "../support/merchants";

/** DESIGN.md section 5: the sandbox chain uses each network's testnet address formats. */
function offering(mode: Offering["mode"], isEvmOn = false): Offering {
  return {
    mode,
    realNetworks: isEvmOn ? { ethereum: "Ethereum (chain id 31337)" } : {},
    realCurrencies: isEvmOn ? ["ETH", "USDTE"] : [],
    contracts: {},
    chainIds: isEvmOn ? { ethereum: 31337 } : {},
    confirmations: {},
    decimals: {},
  };
}

const DOCS_TESTNET_ADDRESS = "tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc";

describe(`testnet addresses on the sandbox chain on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Testnet");
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
  });
  afterAll(() => database.drop());
  afterEach(() => configureOffering(undefined));

  const take = (foreignId: string, currency: string) =>
    takeAddress(database.db, testKeys, { merchantId, foreignId, currency });

  it("hands out testnet deposit addresses on the testnet paths in sandbox mode", async () => {
    configureOffering(offering("sandbox"));
    const btc = await take("t-1", "BTC");
    expect(btc.address).toMatch(/^tb1q/);
    expect(btc.derivationPath).toMatch(/^m\/84'\/1'\/0'\/0\/\d+$/);
    expect((await take("t-1", "LTC")).address).toMatch(/^tltc1q/);
    expect((await take("t-1", "BCH")).address).toMatch(/^bchtest:q/);
    expect((await take("t-1", "DOGE")).address).toMatch(/^n/);
    const eth = await take("t-1", "ETH");
    expect(eth.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(eth.derivationPath).toMatch(/^m\/44'\/60'\/0'\/0\/\d+$/);
    // Payments to them are Kassa's: recognised and credited like any deposit.
    const paid = await sendSandboxPayment(database.db, {
      currency: "BTC",
      address: btc.address,
      amount: 50_000n,
    });
    expect(paid.isRecognized).toBe(true);
  });

  it("keeps a sandbox address handed out before in its stored mainnet format, still payable", async () => {
    const before = await take("old-customer", "BTC"); // no offering: mainnet, as before this change
    expect(before.address).toMatch(/^bc1q/);
    configureOffering(offering("sandbox"));
    const again = await take("old-customer", "BTC");
    expect(again.address).toBe(before.address);
    const paid = await sendSandboxPayment(database.db, {
      currency: "BTC",
      address: before.address,
      amount: 50_000n,
    });
    expect(paid.isRecognized).toBe(true);
  });

  it("uses the real network's (mainnet) format for a currency the EVM adapter carries in sandbox mode", async () => {
    configureOffering(offering("sandbox", true));
    expect((await take("t-2", "BTC")).address).toMatch(/^tb1q/);
    const eth = await take("t-2", "ETH");
    expect(eth.derivationPath).toMatch(/^m\/44'\/60'\/0'\/0\/\d+$/);
  });

  const withdraw = (address: string, foreignId: string) =>
    createWithdrawal(
      database.db,
      withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          currency: "BTC",
          amount: "0.0002",
          address,
          foreign_id: foreignId,
          end_user_reference: "payee-1",
          sender_type: "legal",
          sender_data: { legal_name: "Example GmbH", country_of_registration: "DEU" },
          receiver_type: "self",
        }),
        pricing,
      ),
    );

  it("accepts the public documentation's testnet withdrawal, and mainnet addresses too, in sandbox mode", async () => {
    configureOffering(offering("sandbox"));
    const docs = await withdraw(DOCS_TESTNET_ADDRESS, "docs-example");
    expect(docs.price.sent).toBe(parseDecimal("0.0002"));
    const mainnet = await withdraw("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "mainnet-in-sandbox");
    expect(mainnet.price.sent).toBe(parseDecimal("0.0002"));
  });

  it("refuses a testnet address where the network is not the sandbox chain, naming it", async () => {
    // Production with a real Bitcoin network is what a testnet address must never reach; here,
    // without an offering, the codec's mainnet-only default stands for it.
    expect(await fieldsOf(withdraw(DOCS_TESTNET_ADDRESS, "docs-example-mainnet"))).toEqual({
      address:
        "The address is a Bitcoin testnet address; this installation sends on the Bitcoin mainnet for BTC.",
    });
  });

  it("lists under visible: false exactly the currencies that are not offered", () => {
    const codes = (visible: boolean | undefined, mode: Offering["mode"], isEvmOn = false) =>
      listCurrencies({ visible, offering: offering(mode, isEvmOn) }).map((c) => c.code);
    const all = CURRENCIES.map((c) => c.code);
    expect(codes(false, "sandbox")).toEqual([]);
    expect(codes(undefined, "sandbox")).toEqual(all);
    expect(codes(true, "sandbox")).toEqual(all);
    // Production: only fiat and what the real EVM adapter carries are offered; the rest is hidden.
    expect(codes(undefined, "production", true)).toEqual(["ETH", "USDTE", "EUR", "USD"]);
    expect(codes(false, "production", true)).toEqual([
      "BTC",
      "LTC",
      "BCH",
      "DOGE",
      "USDTT",
      "USDC",
      "TRX",
      "XRP",
    ]);
    expect(codes(false, "production")).toEqual(all.filter((c) => !["EUR", "USD"].includes(c)));
    // The two lists always partition the registry.
    expect([...codes(true, "production", true), ...codes(false, "production", true)].sort()).toEqual(
      [...all].sort(),
    );
  });
});
