import { mnemonicToSeedSync } from "@scure/bip39";
import { mnemonicToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { accountPaths, deriveAccountKeys } from "@/lib/chain/account-keys";
import { checkAddress, codecs } from "@/lib/chain/address-codec";
import { decodeCashAddr } from "@/lib/chain/cashaddr";
import { deriveAddress } from "@/lib/chain/derivation";
import { deriveHotWallet, hotWalletAddress } from "@/lib/chain/evm/payout/hot-wallet";

// The BIP39 test mnemonic and the published first addresses derived from it (BIP84 for BTC/LTC,
// BIP44 for the others), as listed by the wallets that use these paths.
const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const seed = mnemonicToSeedSync(mnemonic);
// What web processes hold: account-level public keys only (DESIGN.md section 5).
const keys = deriveAccountKeys(seed);

describe("deposit address derivation (published test vectors)", () => {
  it.each([
    ["bitcoin", 0, "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "m/84'/0'/0'/0/0"],
    ["bitcoin", 1, "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g", "m/84'/0'/0'/0/1"],
    ["litecoin", 0, "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", "m/84'/2'/0'/0/0"],
    ["bitcoincash", 0, "bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6", "m/44'/145'/0'/0/0"],
    ["dogecoin", 0, "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC", "m/44'/3'/0'/0/0"],
    ["ethereum", 0, "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "m/44'/60'/0'/0/0"],
    ["tron", 0, "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", "m/44'/195'/0'/0/0"],
    ["tron", 1, "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK", "m/44'/195'/0'/0/1"],
    ["ripple", 0, "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3", "m/44'/144'/0'/0/0"],
    ["ripple", 1, "r3AgF9mMBFtaLhKcg96weMhbbEFLZ3mx17", "m/44'/144'/0'/0/1"],
  ] as const)("%s #%i is %s", (format, index, address, path) => {
    expect(deriveAddress(keys, format, index)).toEqual({ address, path });
    expect(checkAddress(format, address)).toEqual({ isValid: true });
  });
});

describe("deposit addresses from account-level public keys", () => {
  it("are public keys of the account level, not private ones", () => {
    // Mainnet accounts, and coin type 1 for the sandbox's testnet formats.
    expect(accountPaths()).toEqual(expect.arrayContaining(["m/44'/60'/0'", "m/84'/0'/0'", "m/84'/1'/0'"]));
    expect(Object.keys(keys).sort()).toEqual(accountPaths().sort());
    for (const xpub of Object.values(keys)) expect(xpub).toMatch(/^xpub/);
  });

  it("equal the addresses viem derives from the mnemonic with private keys, path by path", () => {
    for (const index of [0, 1, 2, 7, 100, 2 ** 31 - 1]) {
      const independent = mnemonicToAccount(mnemonic, {
        accountIndex: 0,
        changeIndex: 0,
        addressIndex: index,
      });
      expect(deriveAddress(keys, "ethereum", index)).toEqual({
        address: independent.address,
        path: `m/44'/60'/0'/0/${index}`,
      });
    }
  });
});

describe("the EVM hot wallet's address from the account's public key", () => {
  it("is the address of the key that signs payouts (m/44'/60'/0'/1/0)", () => {
    const independent = mnemonicToAccount(mnemonic, { accountIndex: 0, changeIndex: 1, addressIndex: 0 });
    expect(hotWalletAddress(keys)).toBe(independent.address);
    expect(deriveHotWallet(seed).address).toBe(independent.address);
  });
});

describe("withdrawal address validation (real checksums)", () => {
  const valid = {
    bitcoin: [
      "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
      "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA",
      "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
      "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr",
      "BC1QCR8TE4KR609GCAWUTMRZA0J4XV80JY8Z306FYU",
    ],
    litecoin: ["ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", "LUWPbpM43E2p7ZSh8cyTBEkvpHmr3cB8Ez"],
    bitcoincash: [
      "bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6",
      "qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6",
    ],
    dogecoin: ["DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC"],
    ethereum: ["0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "0x9858effd232b4033e47d90003d41ec34ecaeda94"],
    tron: ["TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
    ripple: ["rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3"],
  } as const;

  for (const [format, addresses] of Object.entries(valid)) {
    it(`accepts valid ${format} addresses`, () => {
      for (const address of addresses)
        expect(checkAddress(format as keyof typeof valid, address), address).toEqual({ isValid: true });
    });
  }

  it.each([
    [
      "bitcoin",
      "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv",
      "a changed last character breaks the bech32 checksum",
    ],
    ["bitcoin", "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabB", "a changed character breaks base58check"],
    ["bitcoin", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", "another network's address"],
    ["bitcoin", "Bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "mixed case"],
    ["litecoin", "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "a Bitcoin address"],
    ["bitcoincash", "bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q7", "a broken CashAddr checksum"],
    ["dogecoin", "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA", "a Bitcoin legacy address"],
    [
      "ethereum",
      "0x9858EfFD232B4033E47d90003D41EC34EcaEda95",
      "a mixed-case address whose EIP-55 checksum fails",
    ],
    ["ethereum", "0x9858EfFD232B4033E47d90003D41EC34EcaEda9", "39 hex digits"],
    ["tron", "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ", "a broken base58check"],
    ["tron", "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC", "a Dogecoin address"],
    ["ripple", "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v4", "a broken checksum"],
    ["ripple", "XVLhHMPHU98es4dbozjVtdWzVrDjtV8xvjGQTYPiAx6gwDC", "an X-address"],
    ["bitcoin", " bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "surrounding whitespace"],
  ] as const)("refuses for %s: %s (%s)", (format, address, _why) => {
    expect(checkAddress(format, address).isValid).toBe(false);
  });
});

describe("testnet formats (the sandbox chain, DESIGN.md section 5)", () => {
  // Published testnet vectors of the same mnemonic: BIP84 m/84'/1'/0'/0/i and BIP44 m/44'/1'/0'/0/0.
  const BIP84_TESTNET = [
    "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl",
    "tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97",
  ];
  const BIP44_TESTNET_P2PKH = "mkpZhYtJu2r87Js3pDiWJDmPte2NRZ8bJV";
  const witnessProgram = (address: string) => {
    const { words } = codecs.bech32.decode(address as `${string}1${string}`);
    return Buffer.from(codecs.bech32.fromWords(words.slice(1))).toString("hex");
  };
  const legacyHash = Buffer.from(codecs.base58check.decode(BIP44_TESTNET_P2PKH).slice(1)).toString("hex");

  it("derives Bitcoin testnet addresses on the testnet path (coin type 1)", () => {
    expect(deriveAddress(keys, "bitcoin", 0, "testnet")).toEqual({
      address: BIP84_TESTNET[0],
      path: "m/84'/1'/0'/0/0",
    });
    expect(deriveAddress(keys, "bitcoin", 1, "testnet").address).toBe(BIP84_TESTNET[1]);
  });

  it("derives Litecoin, Bitcoin Cash and Dogecoin testnet addresses with their own prefixes", () => {
    const ltc = deriveAddress(keys, "litecoin", 0, "testnet");
    expect(ltc.address).toMatch(/^tltc1q/);
    expect(ltc.path).toBe("m/84'/1'/0'/0/0");
    // The same key as Bitcoin testnet's first address, in Litecoin testnet's encoding.
    expect(witnessProgram(ltc.address)).toBe(witnessProgram(BIP84_TESTNET[0]!));

    const bch = deriveAddress(keys, "bitcoincash", 0, "testnet");
    expect(bch.address).toMatch(/^bchtest:q/);
    expect(bch.path).toBe("m/44'/1'/0'/0/0");
    const decoded = decodeCashAddr(bch.address, "bchtest");
    expect(decoded?.type).toBe("p2pkh");
    expect(Buffer.from(decoded!.hash).toString("hex")).toBe(legacyHash);

    const doge = deriveAddress(keys, "dogecoin", 0, "testnet");
    expect(doge.address).toMatch(/^n/);
    const payload = codecs.base58check.decode(doge.address);
    expect(payload[0]).toBe(0x71);
    expect(Buffer.from(payload.slice(1)).toString("hex")).toBe(legacyHash);

    for (const [format, address] of [
      ["litecoin", ltc.address],
      ["bitcoincash", bch.address],
      ["dogecoin", doge.address],
    ] as const) {
      expect(checkAddress(format, address, ["testnet"]), address).toEqual({ isValid: true });
    }
  });

  it("keeps Ethereum, Tron and XRP addresses as they are on mainnet (their test networks share them)", () => {
    for (const format of ["ethereum", "tron", "ripple"] as const) {
      expect(deriveAddress(keys, format, 0, "testnet")).toEqual(deriveAddress(keys, format, 0));
      expect(checkAddress(format, deriveAddress(keys, format, 0).address, ["testnet"])).toEqual({
        isValid: true,
      });
    }
  });

  it("accepts the public documentation's testnet withdrawal addresses where testnet is accepted", () => {
    const sandbox = ["testnet", "mainnet"] as const;
    for (const address of [
      // The withdrawal example of the public API reference and integration guide.
      "tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc",
      // The public sandbox's callback examples (P2SH on testnet).
      "2NCMFo2k7S8HSDWp6qwQ2wiAMwz3XwEC4Gp",
      BIP44_TESTNET_P2PKH,
      "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
    ]) {
      expect(checkAddress("bitcoin", address, sandbox), address).toEqual({ isValid: true });
    }
    // The CashAddr specification's testnet vector.
    expect(
      checkAddress("bitcoincash", "bchtest:pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t", sandbox),
    ).toEqual({
      isValid: true,
    });
  });

  it("refuses another net's address with a reason that names it, and broken testnet checksums", () => {
    expect(checkAddress("bitcoin", "tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc")).toEqual({
      isValid: false,
      reason: "is a Bitcoin testnet address; this installation sends on the Bitcoin mainnet",
    });
    expect(checkAddress("bitcoincash", "bchtest:pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t")).toEqual({
      isValid: false,
      reason: "is a Bitcoin Cash testnet address; this installation sends on the Bitcoin Cash mainnet",
    });
    expect(checkAddress("litecoin", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", ["testnet"])).toEqual({
      isValid: false,
      reason: "is a Litecoin mainnet address; the sandbox sends on Litecoin testnet",
    });
    for (const [format, address] of [
      ["bitcoin", "tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjd"],
      ["bitcoin", "bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl"],
      ["bitcoin", "tltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh"],
      ["dogecoin", BIP44_TESTNET_P2PKH],
      ["bitcoincash", "bchtest:pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5v"],
    ] as const) {
      expect(checkAddress(format, address, ["testnet", "mainnet"]).isValid, address).toBe(false);
    }
  });
});
