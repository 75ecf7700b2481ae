import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { amount, refinePrecision, wireAmount } from "./amount";
import { endUserReference, sender } from "./common";
import { callbackUrl, cryptoCurrencyCode, currencyCode, foreignId, httpUrl } from "./fields";

/** Spec 2.2's fields, each as the API validates it; the dashboard's form relaxes some (below). */
const invoiceFields = z.object({
  end_user_reference: endUserReference,
  timer: z.boolean().meta({
    description: "true: the invoice expires 15 minutes after it is created (its clock starts then).",
  }),
  title: z.string().trim().min(1).max(50).meta({ description: "Shown to the customer." }),
  foreign_id: foreignId,
  currency: currencyCode.meta({ description: "The currency the merchant's balance receives." }),
  amount,
  url_success: httpUrl,
  url_failed: httpUrl,
  email_user: z
    .email()
    .max(254)
    .meta({ description: "Where refund instructions go if the customer pays a different amount." }),
  type: z.enum(["fill_or_kill", "good_until_expired"]).optional().meta({
    description: "good_until_expired accepts several partial payments until the amount is reached.",
  }),
  description: z.string().trim().max(1000).optional(),
  callback_url: callbackUrl.optional().meta({
    description:
      "Kassa addition: send this invoice's callbacks here instead of to your account's callback URL.",
  }),
  sender_currency: cryptoCurrencyCode
    .optional()
    .meta({ description: "Fixes the currency the customer pays in (with its rate) at creation." }),
});

/** Spec 2.2. The sender fields are the discriminated union of spec 2.1, shared with every endpoint. */
export const createInvoiceRequest = invoiceFields
  .and(sender)
  .superRefine(refinePrecision({ amount: "currency" }))
  .meta({ id: "CreateInvoiceRequest" });
export type CreateInvoiceRequest = z.output<typeof createInvoiceRequest>;

/** Customer details left out: the customer gives them on the checkout, before the address is shown. */
const senderOrNone = z.discriminatedUnion("sender_type", [
  ...sender.options,
  z.object({
    sender_type: z.undefined().optional(),
    sender_data: z
      .never({ error: "The :attribute field is prohibited unless sender type is given." })
      .optional(),
  }),
]);

/**
 * The dashboard's invoice form: an amount, a currency and a title; every other field of spec 2.2
 * optional but validated as the API validates it when given. The customer's details may be left to
 * the customer (see senderOrNone); an absent `foreign_id` is made up by the endpoint, an absent
 * `timer` is on.
 */
export const dashboardInvoiceRequest = invoiceFields
  .partial({
    end_user_reference: true,
    timer: true,
    foreign_id: true,
    url_success: true,
    url_failed: true,
    email_user: true,
  })
  .and(senderOrNone)
  .superRefine(refinePrecision({ amount: "currency" }));
export type DashboardInvoiceRequest = z.output<typeof dashboardInvoiceRequest>;

/** Spec 2.3, field for field. */
export const invoiceResponse = z
  .object({
    id: z.int(),
    url: z.string().meta({ description: "The hosted payment page for the customer." }),
    foreign_id: z.string(),
    end_user_reference: z.string(),
    address: z
      .string()
      .nullable()
      .meta({
        description:
          "The deposit address, once the payment currency is fixed: at creation for a `timer: true` invoice with " +
          "`sender_currency`, else when the customer chooses (or, without a timer, opens) the checkout.",
      }),
    title: z.string(),
    status: z.enum(["created", "pending", "processing", "confirmed", "failed", "cancelled"]),
    currency: z.string(),
    amount: wireAmount,
    sender_currency: z.string().nullable(),
    sender_amount: wireAmount
      .nullable()
      .meta({ description: "What the customer must send, in sender_currency." }),
    fixed_at: z
      .int()
      .nullable()
      .meta({
        description:
          "Unix seconds when the invoice was fixed: its timer started (a `timer: true` invoice, at creation) or, " +
          "without a timer, its currency and rate were fixed.",
      }),
    release_at: z
      .int()
      .nullable()
      .meta({ description: "Unix seconds when the invoice expires (timer only)." }),
    seconds_left: z.int().nullable().meta({ description: "Seconds until release_at, never negative." }),
  })
  .meta({ id: "Invoice" });

export const createInvoiceEndpoint = defineEndpoint({
  method: "POST",
  path: "/invoices/create",
  summary: "Create an invoice",
  description:
    "Creates an invoice and its hosted payment page. Without a timer it starts `created`; with `timer: true` it " +
    "starts `pending` with its 15-minute clock running (`fixed_at`, `release_at`, `seconds_left`), and with " +
    "`sender_currency` also its `address`. `foreign_id` is unique per merchant across all transactions; " +
    "a repeat is refused with `The foreign id has already been taken.`",
  tag: "Invoices",
  isSigned: true,
  request: createInvoiceRequest,
  response: invoiceResponse,
  isIdempotent: true,
  successStatus: 201,
});

export const cancelInvoiceEndpoint = defineEndpoint({
  method: "POST",
  path: "/invoices/{foreign_id}/cancel",
  summary: "Cancel an invoice",
  description:
    "Allowed while the invoice is `created`, `pending` or `processing`, as the public API allows; answers `[]`. " +
    "A payment already on its way is still credited when it confirms, as a late payment with its callback. " +
    "A `confirmed`, `failed` or `cancelled` invoice is refused with 400 " +
    '`{"errors": {"error": "Invoice cannot be cancelled in its current state.", "code": "invalid_invoice_state"}}`. ' +
    "The path may end with a slash, as the public API's does.",
  tag: "Invoices",
  isSigned: true,
  isUnwrapped: true,
  request: z.object({}),
  response: z.tuple([]).meta({ description: "An empty array, as the public API answers." }),
  isIdempotent: true,
  successStatus: 200,
});
