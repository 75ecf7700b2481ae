/** The kinds of transaction and their internal statuses, as the explorer filters them (client and server). */
export const TRANSACTION_TYPES = [
  "invoice",
  "deposit",
  "withdrawal",
  "withdrawal_exchange",
  "withdrawal_instant",
  "exchange",
];
export const TRANSACTION_STATUSES = [
  "created",
  "pending",
  "processing",
  "sending",
  "confirmed",
  "failed",
  "cancelled",
  "error",
  "rejected",
  "declined",
  "below_minimum",
];

/**
 * The explorer's type filter, by what a merchant means: "withdrawal" is every payout, with or without
 * a conversion and instant ones too. The other kinds are one type each. A type of the list above not
 * named here (withdrawal_exchange, withdrawal_instant) is still accepted on its own.
 */
export const TYPE_FILTERS: readonly { value: string; label: string; types: readonly string[] }[] = [
  { value: "invoice", label: "Invoices", types: ["invoice"] },
  { value: "deposit", label: "Deposits to addresses", types: ["deposit"] },
  {
    value: "withdrawal",
    label: "Payouts",
    types: ["withdrawal", "withdrawal_exchange", "withdrawal_instant"],
  },
  { value: "exchange", label: "Conversions between balances", types: ["exchange"] },
];

/** The types a type filter's values stand for. */
export function expandTypeFilter(values: readonly string[]): string[] {
  return [
    ...new Set(values.flatMap((value) => TYPE_FILTERS.find((f) => f.value === value)?.types ?? [value])),
  ];
}

const KIND_WORDS: Record<string, string> = {
  invoice: "Invoice",
  deposit: "Deposit",
  withdrawal: "Payout",
  withdrawal_exchange: "Payout with conversion",
  withdrawal_instant: "Instant payout",
  exchange: "Conversion between balances",
};

/** A transaction's type as a merchant says it ("Payout with conversion", not "withdrawal_exchange"). */
export function kindLabel(type: string): string {
  return KIND_WORDS[type] ?? type;
}
