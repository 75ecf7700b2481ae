import "server-only";

/**
 * The merchant's terms for a refund. `amount`: everything still owed back (`full`), only what was
 * paid beyond the invoice (`excess`, an overpaid invoice), or `custom` units of the coin paid, up to
 * what is owed (or up to the network's minimum, when what is owed falls under it). `rateBasis`: a
 * refund in another coin is worth the coin paid at the payment's rate or at today's. `feePaidBy`:
 * the merchant's balance pays the network fee, or it comes off what the customer receives.
 * `currencies`: coins the customer may choose besides the one paid.
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
