import { mnemonicToSeedSync } from "@scure/bip39";
import { mnemonicToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { accountPath, deriveAccountKeys } from "@/lib/chain/account-keys";
import { checkAddress } from "@/lib/chain/address-codec";
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
    expect(accountPath("ethereum")).toBe("m/44'/60'/0'");
    expect(accountPath("bitcoin")).toBe("m/84'/0'/0'");
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
