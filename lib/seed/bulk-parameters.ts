import "server-only";

import { sql } from "drizzle-orm";
import { getCurrency } from "@/lib/currencies/registry";

/** The currencies a bulk history spreads over (lib/seed/seed-bulk.ts). */
export const BULK_CURRENCIES = ["BTC", "ETH", "USDTT", "LTC", "USDTE", "TRX", "DOGE"] as const;

/** Amount ranges for deposits and invoices; withdrawals take a fifth, so balances stay positive. */
const RANGES: Record<(typeof BULK_CURRENCIES)[number], [string, string]> = {
  BTC: ["0.001", "0.1"],
  ETH: ["0.01", "2"],
  USDTT: ["5", "2000"],
  LTC: ["0.1", "20"],
  USDTE: ["5", "2000"],
  TRX: ["20", "5000"],
  DOGE: ["50", "20000"],
};

/** Rough USD prices, for the amounts of conversions. */
const USD: Record<(typeof BULK_CURRENCIES)[number], string> = {
  BTC: "60000",
  ETH: "3000",
  USDTT: "1",
  LTC: "80",
  USDTE: "1",
  TRX: "0.12",
  DOGE: "0.15",
};

const ADDRESS_SHAPES: Record<string, [prefix: string, length: number]> = {
  bitcoin: ["bc1q", 38],
  litecoin: ["ltc1q", 38],
  dogecoin: ["D", 33],
  ethereum: ["0x", 40],
  tron: ["T", 33],
};

/** The currency parameters as a VALUES list (constants from the registry, never user input). */
function currencyValues(): string {
  return BULK_CURRENCIES.map((code, i) => {
    const c = getCurrency(code);
    const [lo, hi] = RANGES[code];
    const [prefix, length] = ADDRESS_SHAPES[c.addressFormat ?? ""] ?? ["x", 34];
    const fee = (value: bigint) => (Number(value) / 1e8).toFixed(8);
    // Seeded fiat amounts in whole cents, as shops price things (fiat accepts 8 digits, but rarely gets them).
    const digits = c.minorUnit ?? c.precision;
    return `(${i}, '${code}', '${c.network}', ${lo}::numeric, ${hi}::numeric, ${digits}, ${c.depositFeePpm}, ${c.withdrawalFeePpm}, ${fee(c.networkFee)}::numeric, '${prefix}', ${length}, ${c.confirmations}, ${USD[code]}::numeric)`;
  }).join(",\n");
}

/** The `cur` CTE every batch statement joins: one row per seeded currency. */
export const CURRENCY_CTE = () =>
  sql.raw(
    `cur(idx, code, network, lo, hi, precision, deposit_fee_ppm, withdrawal_fee_ppm, network_fee, prefix, addr_len, confirmations, usd) as (values ${currencyValues()})`,
  );

/** A deterministic per-id hash, so a batch can be regenerated identically. */
export const HASH = sql.raw("((g * 2654435761::bigint) % 4294967296)");

/** One batch of a bulk seed: transaction ids lo..hi and what every statement of it needs. */
export type BulkBatch = {
  merchantId: number;
  lo: number;
  hi: number;
  firstId: number;
  startEpoch: number;
  step: number;
  /** Tells this run's generated addresses and foreign ids from an earlier run's. */
  run: string;
  customers: number;
};
