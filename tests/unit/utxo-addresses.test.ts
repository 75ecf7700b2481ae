import { describe, expect, it } from "vitest";
import { checkAddress, codecs, outputScriptOf } from "@/lib/chain/address-codec";
import { deriveAddress } from "@/lib/chain/derivation";
import { depositNetOf } from "@/lib/chain/sandbox/address-nets";
import type { Offering } from "@/lib/currencies/offering";
import { testKeys } from "../support/invoices";

// BIP84's published vectors for the BIP39 test mnemonic ("abandon … about", the seed of testKeys).
const BIP84_MAINNET = [
  "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
  "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g",
];
const BIP84_TESTNET_0 = "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl";

const program = (address: string) => {
  const { words } = codecs.bech32.decode(address as `${string}1${string}`);
  return Buffer.from(codecs.bech32.fromWords(words.slice(1))).toString("hex");
};

// BIP350's valid and invalid segwit addresses (bech32 for v0, bech32m for v1+).
const BIP350_VALID_MAINNET = [
  "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
  "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
  "BC1SW50QGDZ25J",
  "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs",
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
];
const BIP350_VALID_TESTNET = [
  "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
  "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
  "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
];
const BIP350_INVALID = [
  "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", // unknown prefix
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", // v1 with a bech32 checksum
  "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf", // v2 with a bech32 checksum
  "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", // v16 with a bech32 checksum
  "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", // v0 with a bech32m checksum
  "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47", // v0 with a bech32m checksum
  "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", // invalid character
  "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R", // version 17
  "bc1pw5dgrnzv", // program of 1 byte
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav", // program of 41 bytes
  "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", // v0 program of 16 bytes
  "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq", // mixed case
  "bc1gmk9yu", // empty data
];

function realOffering(network: string, net: "mainnet" | "testnet" | "regtest"): Offering {
  return {
    mode: "sandbox",
    realNetworks: { [network]: "node" },
    realCurrencies: [network === "bitcoin" ? "BTC" : "LTC"],
    contracts: {},
    chainIds: {},
    decimals: {},
    confirmations: {},
    nets: { [network]: net },
  };
}

describe("Bitcoin and Litecoin addresses on every net (BIP84, BIP173, BIP350)", () => {
  it("derives BIP84's published addresses from the account xpub, and their programs on testnet and regtest", () => {
    expect(BIP84_MAINNET.map((_, i) => deriveAddress(testKeys, "bitcoin", i, "mainnet").address)).toEqual(
      BIP84_MAINNET,
    );
    expect(deriveAddress(testKeys, "bitcoin", 0, "testnet").address).toBe(BIP84_TESTNET_0);
    const regtest = deriveAddress(testKeys, "bitcoin", 0, "regtest");
    // Regtest derives on testnet's path (coin type 1), in its own bech32 prefix.
    expect(regtest.path).toBe("m/84'/1'/0'/0/0");
    expect(regtest.address).toMatch(/^bcrt1q/);
    expect(program(regtest.address)).toBe(program(BIP84_TESTNET_0));
    const litecoin = deriveAddress(testKeys, "litecoin", 0, "regtest");
    expect(litecoin.address).toMatch(/^rltc1q/);
    expect(program(litecoin.address)).toBe(program(BIP84_TESTNET_0));
    expect(deriveAddress(testKeys, "litecoin", 0, "testnet").address).toMatch(/^tltc1q/);
    expect(deriveAddress(testKeys, "litecoin", 0, "mainnet").address).toMatch(/^ltc1q/);
  });

  it("accepts BIP350's valid addresses on their net only, and refuses its invalid ones", () => {
    for (const address of BIP350_VALID_MAINNET)
      expect(checkAddress("bitcoin", address), address).toEqual({ isValid: true });
    for (const address of BIP350_VALID_TESTNET) {
      expect(checkAddress("bitcoin", address, ["testnet"]), address).toEqual({ isValid: true });
      expect(checkAddress("bitcoin", address, ["mainnet"]).isValid, address).toBe(false);
    }
    for (const address of BIP350_INVALID)
      for (const nets of [["mainnet"], ["testnet"], ["regtest"]] as const)
        expect(checkAddress("bitcoin", address, nets).isValid, address).toBe(false);
  });

  it("takes regtest addresses only where the node is on regtest, naming the net otherwise", () => {
    const bcrt = deriveAddress(testKeys, "bitcoin", 3, "regtest").address;
    const rltc = deriveAddress(testKeys, "litecoin", 3, "regtest").address;
    expect(checkAddress("bitcoin", bcrt, ["regtest"])).toEqual({ isValid: true });
    expect(checkAddress("litecoin", rltc, ["regtest"])).toEqual({ isValid: true });
    expect(checkAddress("bitcoin", bcrt, ["mainnet"])).toEqual({
      isValid: false,
      reason: "is a Bitcoin regtest address; this installation sends on the Bitcoin mainnet",
    });
    expect(checkAddress("litecoin", BIP84_MAINNET[0]!, ["regtest"]).isValid).toBe(false);
    expect(checkAddress("litecoin", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", ["regtest"])).toEqual({
      isValid: false,
      reason: "is a Litecoin mainnet address; this installation sends on Litecoin regtest",
    });
  });

  it("hands out addresses in the net the node reported", () => {
    expect(depositNetOf("LTC", realOffering("litecoin", "regtest"))).toBe("regtest");
    expect(depositNetOf("BTC", realOffering("bitcoin", "testnet"))).toBe("testnet");
    expect(depositNetOf("BTC", realOffering("bitcoin", "mainnet"))).toBe("mainnet");
    // The other coin stays on the sandbox chain, in testnet formats.
    expect(depositNetOf("BTC", realOffering("litecoin", "regtest"))).toBe("testnet");
  });
});

describe("output scripts of Bitcoin-family addresses (what a payout's output pays)", () => {
  // BIP350's published scriptPubKeys for its valid addresses; base58 ones from the Bitcoin wiki's examples.
  const VECTORS: [string, string][] = [
    ["BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "0014751e76e8199196d454941c45d1b3a323f1433bd6"],
    [
      "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
      "5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6",
    ],
    ["BC1SW50QGDZ25J", "6002751e"],
    ["bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", "5210751e76e8199196d454941c45d1b3a323"],
    ["1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "76a91477bff20c60e522dfaa3350c39b030a5d004e839a88ac"],
    ["3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "a914b472a266d0bd89c13706a4132ccfb16f7c3b9fcb87"],
  ];
  it.each(VECTORS)("%s pays %s", (address, script) => {
    expect(Buffer.from(outputScriptOf("bitcoin", address, "mainnet")!).toString("hex")).toBe(script);
  });

  it("refuses another net's address, a bad checksum and a non-segwit format", () => {
    expect(
      outputScriptOf("bitcoin", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "mainnet"),
    ).toBeNull();
    expect(outputScriptOf("bitcoin", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3", "mainnet")).toBeNull();
    expect(outputScriptOf("litecoin", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "mainnet")).toBeNull();
    expect(outputScriptOf("dogecoin", "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L", "mainnet")).toBeNull();
  });
});
