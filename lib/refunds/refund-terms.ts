import "server-only";

/**
 * A merchant's refund terms. `amount`: all still owed (`full`), what was paid beyond the invoice
 * (`excess`), or `custom` units of the coin paid, up to what is owed (or the network minimum, if higher).
 * `rateBasis`: another coin is valued at the payment's rate or today's. `feePaidBy`: the merchant's
 * balance, or off what the customer receives. `currencies`: coins allowed besides the one paid.
 */
export type RefundTerms = {
  amount: { kind: "full" } | { kind: "excess" } | { kind: "custom"; units: bigint };
  rateBasis: "payment" | "now";
  feePaidBy: "merchant" | "customer";
  currencies?: readonly string[];
  /** How long the link works; 30 days unless given. */
  expiresInSeconds?: number;
};

export const DEFAULT_REFUND_SECONDS = 30 * 24 * 3600;
/** Bounds for `expiresInSeconds`: an hour to 90 days. */
export const MIN_REFUND_SECONDS = 3600;
export const MAX_REFUND_SECONDS = 90 * 24 * 3600;
