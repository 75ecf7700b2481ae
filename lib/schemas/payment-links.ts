import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { findCurrency } from "@/lib/currencies/registry";
import { formatAmountShort } from "@/lib/money";
import { amount, refinePrecision, wireAmount } from "./amount";
import { sender } from "./common";
import { currencyCode, httpUrl } from "./fields";
import "./messages";

export const SENDER_TYPES = ["natural", "legal"] as const;
export type SenderType = (typeof SENDER_TYPES)[number];

export const PAYMENT_LINK_STATUSES = ["active", "inactive", "expired", "used_up"] as const;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];

export const PAYMENT_LINKS_PAGE_DEFAULT = 20;
export const PAYMENT_LINKS_PAGE_MAX = 100;
/** The most uses a link may be given: a ceiling far above any sale, so the count stays an int. */
export const MAX_USES_LIMIT = 1_000_000;

/** The amount fields of a link, checked against its currency: precision and the currency's minimum. */
const AMOUNT_FIELDS = ["amount", "min_amount", "max_amount"] as const;

/**
 * A payment link as the API and the dashboard's form create it (docs/decisions/payment-links.md).
 * Either `amount` (fixed), or neither and optionally `min_amount`/`max_amount` (the customer enters
 * the amount). Each amount fits the currency's precision and is at least its minimum, as an
 * invoice's amount must be, because every visit becomes an invoice of that amount.
 */
export const createPaymentLinkRequest = z
  .object({
    title: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .meta({ description: "Shown to the customer; 1 to 50 characters." }),
    description: z.string().trim().max(1000).optional().meta({ description: "Shown to the customer." }),
    currency: currencyCode.meta({
      description:
        "The currency of the amount and of what your balance receives (as an invoice's `currency`).",
    }),
    amount: amount.optional().meta({
      description:
        "A fixed amount. Leave it out to let the customer enter the amount (within min_amount and max_amount).",
    }),
    min_amount: amount.optional().meta({
      description:
        "Only without `amount`: the least the customer may enter (the currency's minimum if absent).",
    }),
    max_amount: amount.optional().meta({
      description: "Only without `amount`: the most the customer may enter; at least `min_amount`.",
    }),
    sender_types: z
      .array(z.enum(SENDER_TYPES))
      .min(1, { error: "The :attribute field is required." })
      .max(2)
      .optional()
      .meta({
        description:
          "Who may pay through the link, as spec 2.1's `sender_type`: a person (`natural`), a company (`legal`), or " +
          "both (the default). The customer gives the matching `sender_data` on the link's page.",
      }),
    expires_at: z.iso.datetime({ offset: true }).optional().meta({
      description:
        "ISO 8601 time after which the link takes no new visits, e.g. `2026-12-31T23:59:59Z`; in the future.",
    }),
    max_uses: z
      .int()
      .min(1)
      .max(MAX_USES_LIMIT)
      .optional()
      .meta({
        description:
          "How many payments the link may take. Confirmed invoices and invoices still open count; expired, failed and " +
          "cancelled ones free their use again.",
      }),
    url_success: httpUrl.optional().meta({ description: "Where the customer returns after paying." }),
    url_failed: httpUrl
      .optional()
      .meta({ description: "Where the customer returns when the payment fails." }),
  })
  .superRefine(refinePrecision({ amount: "currency", min_amount: "currency", max_amount: "currency" }))
  .superRefine((body, ctx) => {
    const issue = (field: string, message: string) =>
      ctx.addIssue({ code: "custom", path: [field], message });
    if (body.amount !== undefined) {
      if (body.min_amount !== undefined)
        issue("min_amount", "The :attribute field is prohibited when amount is present.");
      if (body.max_amount !== undefined)
        issue("max_amount", "The :attribute field is prohibited when amount is present.");
    }
    if (body.min_amount !== undefined && body.max_amount !== undefined && body.max_amount < body.min_amount)
      issue("max_amount", "The :attribute must be at least the min amount.");
    if (body.sender_types && new Set(body.sender_types).size !== body.sender_types.length)
      issue("sender_types", "The :attribute field has a duplicate value.");
    const currency = findCurrency(body.currency);
    if (!currency) return;
    for (const field of AMOUNT_FIELDS) {
      const units = body[field];
      if (units !== undefined && units < currency.minimumAmount)
        issue(field, `The :attribute must be at least ${formatAmountShort(currency.minimumAmount)}.`);
    }
  })
  .meta({ id: "CreatePaymentLinkRequest" });
export type CreatePaymentLinkRequest = z.output<typeof createPaymentLinkRequest>;

/** An opaque page cursor: what `next_cursor` carried. Today the id the next page starts below. */
const cursor = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, "The cursor must be a next_cursor value from an earlier page.")
  .meta({ description: "The `next_cursor` of the previous page; absent for the first page." });

export const listPaymentLinksRequest = z
  .object({
    limit: z
      .int()
      .min(1)
      .max(PAYMENT_LINKS_PAGE_MAX)
      .optional()
      .meta({
        description: `Links per page, 1 to ${PAYMENT_LINKS_PAGE_MAX}; ${PAYMENT_LINKS_PAGE_DEFAULT} when absent.`,
      }),
    cursor: cursor.optional(),
  })
  .meta({ id: "ListPaymentLinksRequest" });
export type ListPaymentLinksRequest = z.output<typeof listPaymentLinksRequest>;

export const paymentLinkResponse = z
  .object({
    id: z
      .int()
      .meta({ description: "The link's id; invoices started from it carry it as `payment_link_id`." }),
    url: z.string().meta({ description: "The link's public page, to share with customers." }),
    title: z.string(),
    description: z.string().nullable(),
    currency: z.string(),
    amount: wireAmount
      .nullable()
      .meta({ description: "The fixed amount; null when the customer enters it." }),
    min_amount: wireAmount.nullable(),
    max_amount: wireAmount.nullable(),
    sender_types: z.array(z.enum(SENDER_TYPES)),
    url_success: z.string().nullable(),
    url_failed: z.string().nullable(),
    expires_at: z.string().nullable().meta({ description: "ISO 8601, UTC." }),
    max_uses: z.int().nullable(),
    status: z.enum(PAYMENT_LINK_STATUSES).meta({
      description:
        "`active` takes visits; `inactive` was deactivated; `expired` is past `expires_at`; `used_up` has `max_uses` " +
        "confirmed or open invoices.",
    }),
    uses: z.int().meta({ description: "Invoices holding a use now: `paid_invoices` + `open_invoices`." }),
    paid_invoices: z.int().meta({ description: "Invoices started from the link and confirmed." }),
    open_invoices: z
      .int()
      .meta({ description: "Invoices started from the link and still payable or being confirmed." }),
    received: wireAmount.meta({
      description:
        "What your balance was credited for the link's invoices, net of fees, in the link's currency.",
    }),
    created_at: z.string().meta({ description: "ISO 8601, UTC." }),
    deactivated_at: z.string().nullable(),
  })
  .meta({ id: "PaymentLink" });
export type PaymentLinkResponse = z.input<typeof paymentLinkResponse>;

const LINKS_DESCRIPTION =
  "Kassa extension. A payment link is a page you share (`url`); each customer who starts paying there gets an " +
  "invoice of their own (15-minute timer, its own address and callbacks), whose invoice callbacks carry " +
  "`payment_link_id`.";

export const createPaymentLinkEndpoint = defineEndpoint({
  method: "POST",
  path: "/payment-links/create",
  summary: "Create a payment link",
  description: `${LINKS_DESCRIPTION} Give \`amount\` for a fixed price, or leave it out and let the customer enter one.`,
  tag: "Payment links",
  isSigned: true,
  request: createPaymentLinkRequest,
  response: paymentLinkResponse,
  isIdempotent: true,
  successStatus: 201,
});

export const listPaymentLinksEndpoint = defineEndpoint({
  method: "POST",
  path: "/payment-links/list",
  summary: "List payment links",
  description:
    "Your payment links, newest first, each with its uses and what it received. Page with `limit` and the " +
    "`next_cursor` of the previous page (null on the last page).",
  tag: "Payment links",
  isSigned: true,
  request: listPaymentLinksRequest,
  response: z
    .object({
      payment_links: z.array(paymentLinkResponse),
      next_cursor: z.string().nullable().meta({ description: "Send it as `cursor` for the next page." }),
    })
    .meta({ id: "PaymentLinksPage" }),
  successStatus: 200,
});

export const deactivatePaymentLinkEndpoint = defineEndpoint({
  method: "POST",
  path: "/payment-links/{id}/deactivate",
  summary: "Deactivate a payment link",
  description:
    "The link takes no new visits (its page says so; its public endpoint answers 410). Invoices already started " +
    "from it carry on as usual. Final: a deactivated link is not activated again; deactivating it again answers it as it is.",
  tag: "Payment links",
  isSigned: true,
  request: z.object({}),
  response: paymentLinkResponse,
  isIdempotent: true,
  successStatus: 200,
});

/**
 * POST /api/link/<token>/start: a customer starts paying a link. The amount only for a link without a
 * fixed one; the customer's own details as spec 2.1's sender fields, by the same union as the API
 * (an optional `sender_data.email` gets refund instructions).
 */
export const startPaymentLinkRequest = z.object({ amount: amount.optional() }).and(sender);
export type StartPaymentLinkRequest = z.output<typeof startPaymentLinkRequest>;
