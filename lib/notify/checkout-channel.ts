import "server-only";

/** The channel drizzle/0031_checkout_notify.sql's triggers announce checkout changes on. */
export const CHECKOUT_CHANNEL = "kassa_checkout";

/** One announcement: an invoice changed, or a sandbox chain's tip moved (every payment's confirmations with it). */
export type CheckoutChange = { kind: "invoice"; token: string } | { kind: "tip"; currency: string };

export function parseCheckoutChange(payload: string): CheckoutChange | null {
  if (payload.startsWith("i:") && payload.length > 2) return { kind: "invoice", token: payload.slice(2) };
  if (payload.startsWith("t:") && payload.length > 2) return { kind: "tip", currency: payload.slice(2) };
  return null;
}
