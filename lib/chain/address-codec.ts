import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { base58, base58xrp, bech32, bech32m, createBase58check } from "@scure/base";
import type { AddressFormat } from "@/lib/currencies/registry";
import { decodeCashAddr, encodeCashAddr } from "./cashaddr";

/**
 * Address formats of each supported network: encodes deposit addresses from public keys, validates withdrawal
 * destinations by each format's real checksum (base58check, bech32/bech32m, CashAddr, EIP-55). The Bitcoin
 * family has testnet formats (tb1…, tltc1…, bchtest:…, Dogecoin's n…) and regtest segwit prefixes (bcrt1…,
 * rltc1…); Ethereum, Tron and XRP use one on all nets. The sandbox uses testnet's (sandbox/address-nets.ts).
 */
export type ChainNet = "mainnet" | "testnet" | "regtest";

/** The formats whose testnet addresses differ from mainnet's, with each net's prefixes and versions. */
type NetParameters = {
  name: string;
  /** bech32 human-readable part of native segwit addresses; none for networks without segwit. */
  segwitHrp?: string;
  cashAddrPrefix?: string;
  /** base58check version bytes: P2PKH first (deposit addresses use it), then P2SH. */
  base58Versions: number[];
};

type Nets = { mainnet: NetParameters; testnet: NetParameters; regtest?: NetParameters };

const NETS: Partial<Record<AddressFormat, Nets>> = {
  bitcoin: {
    mainnet: { name: "Bitcoin", segwitHrp: "bc", base58Versions: [0x00, 0x05] },
    testnet: { name: "Bitcoin testnet", segwitHrp: "tb", base58Versions: [0x6f, 0xc4] },
    regtest: { name: "Bitcoin regtest", segwitHrp: "bcrt", base58Versions: [0x6f, 0xc4] },
  },
  litecoin: {
    mainnet: { name: "Litecoin", segwitHrp: "ltc", base58Versions: [0x30, 0x32, 0x05] },
    testnet: { name: "Litecoin testnet", segwitHrp: "tltc", base58Versions: [0x6f, 0x3a, 0xc4] },
    regtest: { name: "Litecoin regtest", segwitHrp: "rltc", base58Versions: [0x6f, 0x3a, 0xc4] },
  },
  bitcoincash: {
    mainnet: { name: "Bitcoin Cash", cashAddrPrefix: "bitcoincash", base58Versions: [0x00, 0x05] },
    testnet: { name: "Bitcoin Cash testnet", cashAddrPrefix: "bchtest", base58Versions: [0x6f, 0xc4] },
  },
  dogecoin: {
    mainnet: { name: "Dogecoin", base58Versions: [0x1e, 0x16] },
    testnet: { name: "Dogecoin testnet", base58Versions: [0x71, 0xc4] },
  },
};

/** A net's parameters; regtest falls back to testnet's where it has none of its own. */
function netOf(format: AddressFormat, net: ChainNet): NetParameters | undefined {
  const nets = NETS[format];
  return nets && (net === "regtest" ? (nets.regtest ?? nets.testnet) : nets[net]);
}

const base58check = createBase58check(sha256);
const hash160 = (data: Uint8Array) => ripemd160(sha256(data));
const doubleSha256 = (data: Uint8Array) => sha256(sha256(data));

function rippleCheckEncode(payload: Uint8Array): string {
  return base58xrp.encode(Uint8Array.from([...payload, ...doubleSha256(payload).slice(0, 4)]));
}

function rippleCheckDecode(text: string): Uint8Array | null {
  try {
    const raw = base58xrp.decode(text);
    const payload = raw.slice(0, -4);
    const checksum = doubleSha256(payload).slice(0, 4);
    return raw.slice(-4).every((byte, i) => byte === checksum[i]) ? payload : null;
  } catch {
    return null;
  }
}

function base58checkDecode(text: string): Uint8Array | null {
  try {
    return base58check.decode(text);
  } catch {
    return null;
  }
}

function ethereumAddressBytes(compressedPublicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(compressedPublicKey).toBytes(false);
  return keccak_256(uncompressed.slice(1)).slice(-20);
}

/** EIP-55 mixed-case checksum encoding of a 20-byte address. */
export function toChecksumAddress(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString("hex");
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString("hex");
  let out = "0x";
  for (let i = 0; i < hex.length; i++)
    out += Number.parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i];
  return out;
}

/** A deposit address for a public key, in the format of `net` (Ethereum, Tron, XRP: the same on both). */
export function encodeAddress(
  format: AddressFormat,
  compressedPublicKey: Uint8Array,
  net: ChainNet = "mainnet",
): string {
  const parameters = netOf(format, net);
  if (parameters?.segwitHrp)
    return bech32.encode(parameters.segwitHrp, [0, ...bech32.toWords(hash160(compressedPublicKey))]);
  if (parameters?.cashAddrPrefix)
    return encodeCashAddr(parameters.cashAddrPrefix, "p2pkh", hash160(compressedPublicKey));
  if (parameters)
    return base58check.encode(
      Uint8Array.from([parameters.base58Versions[0]!, ...hash160(compressedPublicKey)]),
    );
  switch (format) {
    case "ethereum":
      return toChecksumAddress(ethereumAddressBytes(compressedPublicKey));
    case "tron":
      return base58check.encode(Uint8Array.from([0x41, ...ethereumAddressBytes(compressedPublicKey)]));
    default:
      return rippleCheckEncode(Uint8Array.from([0x00, ...hash160(compressedPublicKey)]));
  }
}

/** A segwit address's witness version and program for the given human-readable part: v0 with 20 or 32 bytes (bech32), v1+ (bech32m); null otherwise. */
function decodeSegwit(text: string, hrp: string): { version: number; program: Uint8Array } | null {
  const lowered = text.toLowerCase();
  if (text !== lowered && text !== text.toUpperCase()) return null;
  if (!lowered.startsWith(`${hrp}1`)) return null;
  for (const codec of [bech32, bech32m]) {
    try {
      const { prefix, words } = codec.decode(lowered as `${string}1${string}`, 90);
      if (prefix !== hrp || words.length === 0) continue;
      const version = words[0]!;
      const program = codec.fromWords(words.slice(1));
      if (version === 0 && codec === bech32 && (program.length === 20 || program.length === 32))
        return { version, program };
      if (version >= 1 && version <= 16 && codec === bech32m && program.length >= 2 && program.length <= 40)
        return { version, program };
    } catch {
      // try the other encoding
    }
  }
  return null;
}

const isSegwit = (text: string, hrp: string) => decodeSegwit(text, hrp) !== null;

function isBase58Versioned(text: string, versions: number[], length = 21): boolean {
  const payload = base58checkDecode(text);
  return payload !== null && payload.length === length && versions.includes(payload[0]!);
}

export type AddressCheck = { isValid: true } | { isValid: false; reason: string };

const invalid = (reason: string): AddressCheck => ({ isValid: false, reason });
const VALID: AddressCheck = { isValid: true };

/** Whether `text` is a valid address of one net's parameters. */
function isOfNet(parameters: NetParameters, text: string): boolean {
  if (parameters.segwitHrp && isSegwit(text, parameters.segwitHrp)) return true;
  if (parameters.cashAddrPrefix && decodeCashAddr(text, parameters.cashAddrPrefix)) return true;
  return isBase58Versioned(text, parameters.base58Versions);
}

/**
 * Checks a destination address for a network, checksums included. `nets` are the nets accepted
 * here (mainnet unless told otherwise); a valid address of another net is refused with a reason that
 * names it, so a merchant sees "a Bitcoin testnet address" rather than "not a valid address".
 */
export function checkAddress(
  format: AddressFormat,
  text: string,
  nets: readonly ChainNet[] = ["mainnet"],
): AddressCheck {
  if (text !== text.trim() || text.length === 0 || text.length > 128)
    return invalid("is not a valid address");
  const byNet = NETS[format];
  if (!byNet) return checkSameOnEveryNet(format, text);
  for (const net of ["mainnet", "testnet", "regtest"] as const) {
    const parameters = byNet[net];
    if (!parameters || !isOfNet(parameters, text)) continue;
    if (nets.includes(net)) return VALID;
    // Regtest's base58 addresses are testnet's bytes: accepted where regtest is.
    if (net === "testnet" && nets.includes("regtest") && !isSegwit(text, parameters.segwitHrp ?? ""))
      return VALID;
    const accepted = nets.includes("mainnet")
      ? `the ${byNet.mainnet.name} mainnet`
      : (netOf(format, nets[0]!)?.name ?? byNet.testnet.name);
    return invalid(
      net === "mainnet"
        ? `is a ${byNet.mainnet.name} mainnet address; ${nets.includes("testnet") ? "the sandbox sends" : "this installation sends"} on ${accepted}`
        : `is a ${parameters.name} address; this installation sends on ${accepted}`,
    );
  }
  return invalid(`is not a valid ${byNet.mainnet.name} address`);
}

/** Ethereum, Tron and XRP: one address format for mainnet and test networks alike. */
function checkSameOnEveryNet(format: AddressFormat, text: string): AddressCheck {
  switch (format) {
    case "ethereum": {
      if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return invalid("is not a valid Ethereum address");
      const body = text.slice(2);
      if (body === body.toLowerCase() || body === body.toUpperCase()) return VALID;
      return toChecksumAddress(Buffer.from(body, "hex")) === text
        ? VALID
        : invalid("has a wrong EIP-55 checksum (check the capital letters)");
    }
    case "tron":
      return isBase58Versioned(text, [0x41]) ? VALID : invalid("is not a valid Tron address");
    case "ripple": {
      if (text.startsWith("X"))
        return invalid("is an X-address; send the classic r-address and the destination tag");
      const payload = rippleCheckDecode(text);
      return payload?.length === 21 && payload[0] === 0 ? VALID : invalid("is not a valid XRP address");
    }
    default:
      return invalid("is not a valid address");
  }
}

/**
 * The output script (scriptPubKey) paying a Bitcoin-family address of `net`, or null when the text
 * is not one: what a payout transaction puts in its output. Segwit: OP_version and the program;
 * base58: P2PKH for the net's first version byte, P2SH for the others (Litecoin's 3… and M…).
 */
export function outputScriptOf(format: AddressFormat, text: string, net: ChainNet): Uint8Array | null {
  const parameters = netOf(format, net);
  if (!parameters?.segwitHrp) return null;
  const segwit = decodeSegwit(text, parameters.segwitHrp);
  if (segwit)
    return Uint8Array.from([
      segwit.version === 0 ? 0x00 : 0x50 + segwit.version,
      segwit.program.length,
      ...segwit.program,
    ]);
  const payload = base58checkDecode(text);
  if (payload?.length !== 21 || !parameters.base58Versions.includes(payload[0]!)) return null;
  const hash = payload.slice(1);
  return payload[0] === parameters.base58Versions[0]
    ? Uint8Array.from([0x76, 0xa9, 0x14, ...hash, 0x88, 0xac])
    : Uint8Array.from([0xa9, 0x14, ...hash, 0x87]);
}

/**
 * A net's parameters as Bitcoin libraries take them (segwit prefix, base58 versions), for building
 * transactions; null for formats without segwit. `wif` is unused by Kassa (it signs with raw keys).
 */
export function bitcoinNetworkOf(
  format: AddressFormat,
  net: ChainNet,
): { bech32: string; pubKeyHash: number; scriptHash: number; wif: number } | null {
  const parameters = netOf(format, net);
  if (!parameters?.segwitHrp) return null;
  const [pubKeyHash, scriptHash] = parameters.base58Versions as [number, number];
  return { bech32: parameters.segwitHrp, pubKeyHash, scriptHash, wif: 0x80 };
}

/** Exposed for tests that need malformed inputs of a realistic shape. */
export const codecs = { base58, base58check, bech32 };
