import { z } from "zod";

/**
 * The invoice callback as the public API documents it: its "Invoice payment callbacks" examples
 * (coinspaid/docs api-documentation/callbacks.md; docs.cryptoprocessing.com
 * api-reference/callbacks/invoice-payment-callbacks, which adds `end_user_reference`), written
 * down here as a strict shape, key by key, with the kind of each value. Kassa adds two fields,
 * named here so that nothing else can slip in: `currency_received.amount_minus_fee` and the root
 * `additional_details`.
 */
const amount = z.string().regex(/^\d+\.\d{8}$/);
const unixSeconds = z.int().min(1_500_000_000);

const blockchainEntry = z.strictObject({
  id: z.int(),
  currency: z.string(),
  transaction_type: z.literal("blockchain"),
  type: z.literal("deposit"),
  address: z.string(),
  tag: z.string().nullable(),
  amount,
  txid: z.string(),
  riskscore: z.string().optional(),
  // The examples send it as a string ("0", "1", "2"); a public Go client requires that.
  confirmations: z.string().regex(/^\d+$/),
});

// Kassa lists the conversion of a converting invoice's payments, as deposit_exchange callbacks do.
const exchangeEntry = z.strictObject({
  id: z.int(),
  currency: z.string(),
  currency_to: z.string(),
  transaction_type: z.literal("exchange"),
  type: z.literal("exchange"),
  amount,
  amount_to: amount,
});

export const publicInvoiceCallback = z.strictObject({
  id: z.int(),
  foreign_id: z.string(),
  end_user_reference: z.string(),
  type: z.literal("invoice"),
  crypto_address: z.strictObject({
    id: z.int(),
    currency: z.string(),
    // Present in the example whose invoice converts (BTC paid, EUR received).
    convert_to: z.string().optional(),
    address: z.string(),
    tag: z.string().nullable(),
  }),
  currency_sent: z.strictObject({ currency: z.string(), amount, remaining_amount: amount }),
  currency_received: z.strictObject({ currency: z.string(), amount, amount_minus_fee: amount }),
  transactions: z.array(z.union([blockchainEntry, exchangeEntry])),
  fees: z.array(z.strictObject({ type: z.literal("fee_crypto_deposit"), currency: z.string(), amount })),
  error: z.string(),
  status: z.enum(["created", "pending", "processing", "confirmed", "failed", "cancelled"]),
  fixed_at: unixSeconds,
  // Kassa: null on an invoice without a timer (no deadline) outside `processing`.
  expires_at: unixSeconds.nullable(),
  additional_details: z.record(z.string(), z.unknown()),
});

/** The root keys in the examples' order, then Kassa's addition. */
export const PUBLIC_ROOT_KEYS = [
  "id",
  "foreign_id",
  "end_user_reference",
  "type",
  "crypto_address",
  "currency_sent",
  "currency_received",
  "transactions",
  "fees",
  "error",
  "status",
  "fixed_at",
  "expires_at",
  "additional_details",
];

export type PublicInvoiceCallback = z.infer<typeof publicInvoiceCallback>;

/**
 * A callback body against the public shape, field by field and in order, for any test runner (vitest
 * and Playwright): the shape's complaints (none when it fits), the root keys, and the parsed body.
 */
export function checkPublicShape(body: string) {
  const parsed = JSON.parse(body);
  const result = publicInvoiceCallback.safeParse(parsed);
  return {
    issues: result.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [],
    keys: Object.keys(parsed),
    data: result.data as PublicInvoiceCallback,
  };
}
