import { parseDecimal } from "@/lib/money";

/**
 * The currency registry (DESIGN.md section 3). Codes follow the public API: where a token lives on
 * several networks, the network is part of the code (USDTE is USDT on Ethereum, USDTT on Tron).
 * Amounts are minor units (10^-8); fees are parts per million of the amount (1% = 10_000).
 */
export type TagSupport = "none" | "optional" | "required";
export type AddressFormat =
  | "bitcoin"
  | "litecoin"
  | "bitcoincash"
  | "dogecoin"
  | "ethereum"
  | "tron"
  | "ripple";

export type Currency = {
  id: number;
  code: string;
  name: string;
  kind: "crypto" | "fiat";
  /** Fraction digits accepted in amounts of this currency (and kept in its balances). */
  precision: number;
  /**
   * Fiat only: the ISO 4217 minor unit (2 for EUR). Prices are shown with at least these digits,
   * and a payment within one such unit of the amount due counts as exact; amounts themselves may
   * carry `precision` (8) digits, as the public API's fiat does.
   */
  minorUnit?: number;
  /** The network a crypto currency moves on; null for fiat. */
  network: string | null;
  addressFormat: AddressFormat | null;
  /** Token contract on its network, for payment URIs and the chain adapter. */
  contract?: string;
  /** Decimals of the on-chain unit (18 for ETH), used for payment URIs. */
  chainDecimals?: number;
  minimumAmount: bigint;
  minimumWithdrawalAmount: bigint;
  depositFeePpm: number;
  withdrawalFeePpm: number;
  /** Flat network fee charged on a withdrawal, in this currency. */
  networkFee: bigint;
  /** Confirmations after which a deposit counts as final. */
  confirmations: number;
  /** Whether withdrawals to this network take a tag/memo, and whether one is needed. */
  tagSupport: TagSupport;
  tagName: string | null;
  isVisible: boolean;
};

const amount = (text: string) => parseDecimal(text);

type Definition = Omit<Currency, "minimumAmount" | "minimumWithdrawalAmount" | "networkFee" | "isVisible"> & {
  minimumAmount: string;
  minimumWithdrawalAmount: string;
  networkFee: string;
};

const DEFINITIONS: Definition[] = [
  {
    id: 1,
    code: "BTC",
    name: "Bitcoin",
    kind: "crypto",
    precision: 8,
    network: "bitcoin",
    addressFormat: "bitcoin",
    chainDecimals: 8,
    minimumAmount: "0.0001",
    // The public API's minimum (confirmations-and-limits.md), so its documentation's own example
    // withdrawal of 0.0002 BTC is accepted.
    minimumWithdrawalAmount: "0.0001",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "0.00002",
    confirmations: 2,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 2,
    code: "LTC",
    name: "Litecoin",
    kind: "crypto",
    precision: 8,
    network: "litecoin",
    addressFormat: "litecoin",
    chainDecimals: 8,
    minimumAmount: "0.01",
    minimumWithdrawalAmount: "0.02",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "0.0001",
    confirmations: 6,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 3,
    code: "BCH",
    name: "Bitcoin Cash",
    kind: "crypto",
    precision: 8,
    network: "bitcoincash",
    addressFormat: "bitcoincash",
    chainDecimals: 8,
    minimumAmount: "0.001",
    minimumWithdrawalAmount: "0.002",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "0.00001",
    confirmations: 6,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 4,
    code: "DOGE",
    name: "Dogecoin",
    kind: "crypto",
    precision: 8,
    network: "dogecoin",
    addressFormat: "dogecoin",
    chainDecimals: 8,
    minimumAmount: "10",
    minimumWithdrawalAmount: "20",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "1",
    confirmations: 20,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 5,
    code: "ETH",
    name: "Ethereum",
    kind: "crypto",
    precision: 8,
    network: "ethereum",
    addressFormat: "ethereum",
    chainDecimals: 18,
    minimumAmount: "0.005",
    minimumWithdrawalAmount: "0.01",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "0.0005",
    confirmations: 12,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 6,
    code: "USDTE",
    name: "Tether USD (Ethereum, ERC-20)",
    kind: "crypto",
    precision: 6,
    network: "ethereum",
    addressFormat: "ethereum",
    contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    chainDecimals: 6,
    minimumAmount: "5",
    minimumWithdrawalAmount: "10",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "3",
    confirmations: 12,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 7,
    code: "USDTT",
    name: "Tether USD (Tron, TRC-20)",
    kind: "crypto",
    precision: 6,
    network: "tron",
    addressFormat: "tron",
    contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    chainDecimals: 6,
    minimumAmount: "1",
    minimumWithdrawalAmount: "5",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "1",
    confirmations: 20,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 8,
    code: "USDC",
    name: "USD Coin (Ethereum, ERC-20)",
    kind: "crypto",
    precision: 6,
    network: "ethereum",
    addressFormat: "ethereum",
    contract: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    chainDecimals: 6,
    minimumAmount: "5",
    minimumWithdrawalAmount: "10",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "3",
    confirmations: 12,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 9,
    code: "TRX",
    name: "Tron",
    kind: "crypto",
    precision: 6,
    network: "tron",
    addressFormat: "tron",
    chainDecimals: 6,
    minimumAmount: "10",
    minimumWithdrawalAmount: "20",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "1",
    confirmations: 20,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 10,
    code: "XRP",
    name: "XRP",
    kind: "crypto",
    precision: 6,
    network: "ripple",
    addressFormat: "ripple",
    chainDecimals: 6,
    minimumAmount: "1",
    minimumWithdrawalAmount: "20",
    depositFeePpm: 5_000,
    withdrawalFeePpm: 0,
    networkFee: "0.1",
    confirmations: 1,
    // Exchanges and custodians share one address and tell customers apart by destination tag;
    // sending to such an address without the tag loses the funds, so Kassa requires it.
    tagSupport: "required",
    tagName: "destination tag",
  },
  {
    id: 11,
    code: "EUR",
    name: "Euro",
    kind: "fiat",
    // Fiat balances and amounts are kept to 8 fraction digits, the precision the public API's
    // sandbox reports for fiat in currencies/list, so a client's "10.12345678" EUR is accepted.
    precision: 8,
    minorUnit: 2,
    network: null,
    addressFormat: null,
    minimumAmount: "10",
    minimumWithdrawalAmount: "10",
    depositFeePpm: 0,
    withdrawalFeePpm: 10_000,
    networkFee: "0",
    confirmations: 0,
    tagSupport: "none",
    tagName: null,
  },
  {
    id: 12,
    code: "USD",
    name: "US Dollar",
    kind: "fiat",
    // Fiat balances and amounts are kept to 8 fraction digits, the precision the public API's
    // sandbox reports for fiat in currencies/list, so a client's "10.12345678" EUR is accepted.
    precision: 8,
    minorUnit: 2,
    network: null,
    addressFormat: null,
    minimumAmount: "10",
    minimumWithdrawalAmount: "10",
    depositFeePpm: 0,
    withdrawalFeePpm: 10_000,
    networkFee: "0",
    confirmations: 0,
    tagSupport: "none",
    tagName: null,
  },
];

export const CURRENCIES: readonly Currency[] = DEFINITIONS.map((d) => ({
  ...d,
  minimumAmount: amount(d.minimumAmount),
  minimumWithdrawalAmount: amount(d.minimumWithdrawalAmount),
  networkFee: amount(d.networkFee),
  isVisible: true,
}));

const BY_CODE = new Map(CURRENCIES.map((c) => [c.code, c]));

export const CURRENCY_CODES = CURRENCIES.map((c) => c.code) as [string, ...string[]];

export function findCurrency(code: string): Currency | undefined {
  return BY_CODE.get(code);
}

export function getCurrency(code: string): Currency {
  const currency = BY_CODE.get(code);
  if (!currency) throw new Error(`unknown currency ${code}`);
  return currency;
}
