import { bech32 } from "@scure/base";

/**
 * CashAddr (Bitcoin Cash): base32 with a 40-bit BCH polymod checksum over the prefix. No maintained
 * package in the registry covers it with types, and the spec is short; the BIP44 test vector in
 * tests/unit/address-derivation-and-validation.test.ts pins the result.
 */
const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];

function polymod(values: number[]): bigint {
  let checksum = 1n;
  for (const value of values) {
    const top = checksum >> 35n;
    checksum = ((checksum & 0x07ffffffffn) << 5n) ^ BigInt(value);
    for (let i = 0; i < 5; i++) if ((top >> BigInt(i)) & 1n) checksum ^= GENERATORS[i]!;
  }
  return checksum ^ 1n;
}

const prefixValues = (prefix: string) => [...prefix].map((c) => c.charCodeAt(0) & 0x1f);

export type CashAddrType = "p2pkh" | "p2sh";

export function encodeCashAddr(prefix: string, type: CashAddrType, hash: Uint8Array): string {
  if (hash.length !== 20) throw new Error("only 160-bit hashes are supported");
  const versionByte = type === "p2pkh" ? 0 : 8;
  const payload = bech32.toWords(Uint8Array.from([versionByte, ...hash]));
  const checksum = polymod([...prefixValues(prefix), 0, ...payload, 0, 0, 0, 0, 0, 0, 0, 0]);
  const checksumWords = Array.from({ length: 8 }, (_, i) =>
    Number((checksum >> BigInt(5 * (7 - i))) & 0x1fn),
  );
  return `${prefix}:${[...payload, ...checksumWords].map((w) => CHARSET[w]).join("")}`;
}

export function decodeCashAddr(
  text: string,
  expectedPrefix: string,
): { type: CashAddrType; hash: Uint8Array } | null {
  const isLower = text === text.toLowerCase();
  const isUpper = text === text.toUpperCase();
  if (!isLower && !isUpper) return null; // mixed case is invalid
  const lowered = text.toLowerCase();
  const [prefix, body] = lowered.includes(":") ? lowered.split(":", 2) : [expectedPrefix, lowered];
  if (prefix !== expectedPrefix || !body || body.length < 9) return null;
  const words: number[] = [];
  for (const char of body) {
    const index = CHARSET.indexOf(char);
    if (index < 0) return null;
    words.push(index);
  }
  if (polymod([...prefixValues(prefix), 0, ...words]) !== 0n) return null;
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(bech32.fromWords(words.slice(0, -8)));
  } catch {
    return null;
  }
  const versionByte = bytes[0];
  const hash = bytes.slice(1);
  if (hash.length !== 20 || (versionByte !== 0 && versionByte !== 8)) return null;
  return { type: versionByte === 0 ? "p2pkh" : "p2sh", hash };
}
