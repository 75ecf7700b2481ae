import "server-only";

/** What a screening provider is told about one incoming payment (compliance review, docs/compliance.md). */
export type ScreeningInput = {
  merchantId: number;
  /** The sending address(es) the chain names; empty when it names none (a sandbox payment without one). */
  senders: string[];
  /** The address paid (one of Kassa's deposit addresses). */
  address: string;
  currency: string;
  /** In ledger units (10^-8) of `currency`. */
  amount: bigint;
  /** The merchant's customer (`end_user_reference`) and how many of their payments were credited before; null when unknown. */
  customer: { reference: string; previousPayments: number } | null;
};

export type ScreeningResult = {
  /** From "0" to "100", a decimal string with at most two decimals (lib/compliance/risk-score.ts). */
  score: string;
  /** Why, in words an operator or a merchant's reviewer understands; empty when nothing matched. */
  reasons: string[];
};

/**
 * Scores a payment before it is credited. The built-in provider (list-screening-provider.ts) checks
 * operator lists and simple rules; a commercial analytics service fits behind the same type.
 */
export type ScreeningProvider = {
  score(input: ScreeningInput): Promise<ScreeningResult>;
};
