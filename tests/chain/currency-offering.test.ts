import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { paymentUri } from "@/lib/checkout/payment-uri";
import { configureOffering, isOffered, type Offering } from "@/lib/currencies/offering";
import { currencyCode } from "@/lib/schemas/fields";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { testKeys } from "../support/invoices";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const DEVNET_USDT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const ADDRESS = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";

function offering(mode: Offering["mode"], isEvmOn: boolean): Offering {
  return isEvmOn
    ? {
        mode,
        realNetworks: { ethereum: "Ethereum (chain id 31337)" },
        realCurrencies: ["ETH", "USDTE"],
        contracts: { USDTE: DEVNET_USDT },
        chainIds: { ethereum: 31337 },
        confirmations: { ETH: 3, USDTE: 3 },
        decimals: { USDTE: 6 },
      }
    : {
        mode,
        realNetworks: {},
        realCurrencies: [],
        contracts: {},
        chainIds: {},
        confirmations: {},
        decimals: {},
      };
}

describe("which currencies are offered (DESIGN.md section 5)", () => {
  afterEach(() => configureOffering(undefined));

  it("production mode offers no currency of a simulated network, and a token only with its contract", () => {
    const production = offering("production", true);
    expect(["EUR", "USD", "ETH", "USDTE"].every((code) => isOffered(code, production))).toBe(true);
    expect(["BTC", "LTC", "USDTT", "XRP", "USDC"].some((code) => isOffered(code, production))).toBe(false);
    expect(isOffered("ETH", offering("production", false))).toBe(false);
    expect(isOffered("BTC", offering("sandbox", true))).toBe(true);
    expect(isOffered("USDC", offering("sandbox", true))).toBe(false); // real network, no contract
  });

  it("refuses a currency that is not offered with the invalid-currency message", () => {
    configureOffering(offering("production", true));
    const refused = currencyCode.safeParse("btc");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("The selected :attribute is invalid.");
    expect(currencyCode.parse("eth")).toBe("ETH");
  });

  it("puts the configured chain id and token contract into EIP-681 payment URIs", () => {
    configureOffering(offering("sandbox", true));
    expect(paymentUri({ currency: "ETH", address: ADDRESS, tag: "", amount: 150_000_000n })).toBe(
      `ethereum:${ADDRESS}@31337?value=1500000000000000000`,
    );
    expect(paymentUri({ currency: "USDTE", address: ADDRESS, tag: "", amount: 2_500_000_000n })).toBe(
      `ethereum:${DEVNET_USDT}@31337/transfer?address=${ADDRESS}&uint256=25000000`,
    );
    configureOffering(undefined);
    expect(paymentUri({ currency: "ETH", address: ADDRESS, tag: "", amount: 1n })).toBe(
      `ethereum:${ADDRESS}@1?value=10000000000`,
    );
  });
});

describe("the sandbox chain with the EVM adapter on", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  afterEach(() => configureOffering(undefined));

  it("refuses payments and blocks of a currency on the real chain with a 400 naming it", async () => {
    configureOffering(offering("sandbox", true));
    const payment = await fieldsOf(
      sendSandboxPayment(database.db, { currency: "ETH", address: ADDRESS, amount: 100_000_000n }),
    );
    expect(payment.currency).toContain("real Ethereum (chain id 31337) network");
    const blocks = await fieldsOf(mineSandboxBlocks(database.db, { currency: "USDTE", count: 1 }));
    expect(blocks.currency).toContain("real Ethereum (chain id 31337) network");
    const merchantId = await createTestMerchant(database, "Offering");
    const btc = await takeAddress(database.db, testKeys, { merchantId, foreignId: "c1", currency: "BTC" });
    const paid = await sendSandboxPayment(database.db, {
      currency: "BTC",
      address: btc.address,
      amount: 100_000n,
    });
    expect(paid.isRecognized).toBe(true); // a simulated network's currency is still simulated
  });
});
