import { z } from "zod";
import { splitRanges } from "@/lib/api-keys/split-ranges";
import { amount, refinePrecision } from "./amount";
import { callbackUrl, currencyCode } from "./fields";
import { sandboxBlocksRequest, sandboxPaymentRequest } from "./sandbox";
import { refineOneAmount, withdrawalFields, withdrawalPrecision, withdrawalRequest } from "./withdrawals";
import "./messages";

/**
 * Requests of the dashboard's own endpoints. Where the merchant API has the same operation, the
 * schema is derived from the API's (`.pick()`, `.extend()`, the same refinements), so a form and
 * its endpoint validate exactly as /api/v2 does; the invoice and payout forms use the API schemas
 * themselves (lib/schemas/invoices.ts, lib/schemas/withdrawals.ts).
 */

export const onboardingRequest = z.object({
  name: z.string().trim().min(1).max(120),
  callback_url: callbackUrl.optional(),
  key_label: z.string().trim().max(100).optional(),
});

/** A new API key (confirmed by the session's step-up window, lib/team/sensitive-actions.ts). */
export const apiKeyRequest = z.object({
  label: z.string().trim().min(1).max(100),
  /** The key may move money (withdrawals, exchanges): only for members who may create payouts. */
  can_move_money: z.boolean().default(false),
});

/** An empty `callback_url` removes it. Confirmed like a new API key. */
export const callbackUrlRequest = z.object({ callback_url: callbackUrl });

/** The designated callback key, chosen by an owner and confirmed like a new API key. */
/** The owner's choice of callback key (confirmed by the step-up window, lib/team/sensitive-actions.ts). */
export const callbackKeyRequest = z.object({ key_id: z.number().int().positive() });

/** The optional callbacks a merchant turns on (Callbacks page). */
export const callbackSettingsRequest = z.object({ is_below_minimum_callback_on: z.boolean() });

export const passwordRequest = z.object({
  current_password: z.string().min(1).max(200),
  new_password: z.string().min(10, { error: "The :attribute must be at least 10 characters." }).max(200),
});

export const totpEnableRequest = z.object({
  // The base32 secret /totp/setup handed out (32 characters); anything else cannot verify a code.
  secret: z.string().regex(/^[A-Z2-7]{26,64}$/, {
    error: "This set-up has expired. Start setting up two-factor sign-in again.",
  }),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { error: "Enter the 6-digit code from your authenticator app." }),
  // Turning the second factor on is confirmed with the password: a stolen session must not be able
  // to enrol its own authenticator and lock the owner out.
  password: z.string().min(1, { error: "Type your password to confirm." }).max(200),
});

export const totpDisableRequest = z.object({ password: z.string().min(1).max(200) });

/**
 * The payout form's live quote: the pricing fields of POST /withdrawal/crypto with its rules
 * (exactly one of amount and amount_to, amount_to only with convert_to, each amount within its
 * currency's precision). Without convert_to the payout sends `currency` itself.
 */
export const quoteRequest = withdrawalFields
  .pick({ currency: true, convert_to: true, amount: true, amount_to: true })
  .superRefine(refineOneAmount)
  .superRefine(withdrawalPrecision);

/**
 * The payout form: POST /withdrawal/crypto's request, plus the invoice a "Refund owed" payout is
 * recorded against (its id, as the prefilled link carries it).
 */
export const payoutRequest = withdrawalRequest.and(
  z.object({
    refund_of: z
      .preprocess(
        (value) => (typeof value === "string" && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : value),
        z.int().positive(),
      )
      .optional(),
  }),
);

/** The same request as POST /api/v2/sandbox/payments. */
export const sandboxPayRequest = sandboxPaymentRequest;

/** POST /api/v2/sandbox/blocks; the sandbox panel sends the count as the text typed. */
export const sandboxMineRequest = sandboxBlocksRequest.extend({
  count: z.preprocess(
    (value) => (typeof value === "string" && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : value),
    sandboxBlocksRequest.shape.count,
  ),
});

/** Sandbox only: the panel's one-click actions on an open invoice. */
export const sandboxInvoiceActionRequest = z.object({
  action: z.enum(["pay_exact", "pay_under", "pay_over", "expire"]),
});

/** Sandbox only, no API twin (the CLI's `sandbox credit`): any currency, within its precision. */
export const sandboxCreditRequest = z
  .object({ currency: currencyCode, amount })
  .superRefine(refinePrecision({ amount: "currency" }));

/** Sandbox only: a currency's USD price (rates are their own type, not amounts of the currency). */
export const sandboxRateRequest = z.object({ currency: currencyCode, usd_price: amount });

/** A key's IP allowlist: addresses or CIDR ranges (an empty list: any address). */
export const apiKeyAllowlistRequest = z.object({
  // Opening a key to more addresses weakens it: confirmed like a new key.
  allowed_ips: z.array(z.string().max(100)).max(200),
});

/**
 * The allowlist form: the ranges in one box as typed, checked as the request's list (split as the
 * form sends them), with what is wrong said on the box itself. The server checks each range.
 */
export const apiKeyAllowlistForm = apiKeyAllowlistRequest.extend({
  allowed_ips: z
    .string()
    .optional()
    .superRefine((text, context) => {
      const list = apiKeyAllowlistRequest.shape.allowed_ips.safeParse(splitRanges(text ?? ""));
      for (const issue of list.error?.issues ?? [])
        context.addIssue({ code: "custom", message: issue.message });
    }),
});

/** Revoking a key: confirmed like a new key (a stolen session must not be able to cut a shop off). */
export const apiKeyRevokeRequest = z.object({});

/** Rolling a key: how long the old key keeps working, in seconds (0 to 7 days; default 24 hours). */
export const apiKeyRollRequest = z.object({
  // A roll hands out a new secret: confirmed like a new key.
  overlap_seconds: z.number().int().min(0).max(604_800).default(86_400),
});

/**
 * The dashboard's confirmation dialog (POST /api/dashboard/step-up): the authenticator code with
 * two-factor sign-in on, else the password. Opens the session's step-up window.
 */
export const stepUpRequest = z.object({
  code: z.string().trim().max(20).optional(),
  password: z.string().max(200).optional(),
});
