import "server-only";

import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import type { RefundTerms } from "@/lib/refunds/refund-terms";
import { amount, wireAmount } from "./amount";
import { cryptoCurrencyCode } from "./fields";
import "./messages";

/** POST /api/refund/<token>: the customer's claim. The coin and address are checked against the refund and the network. */
export const claimRefundRequest = z.object({
  currency: z.string().trim().min(1).max(16),
  address: z.string().trim().min(1).max(200),
  tag: z.string().trim().max(100).optional(),
});

/**
 * A refund's terms as a request gives them (the dashboard's "Issue refund", and the public API's
 * refund endpoints): `amount` full / excess / custom (with `custom_amount` in the coin paid), the
 * rate a refund in another coin is valued at, who pays the network fee, the other coins allowed,
 * and how many days the link works.
 */
export const refundTermsRequest = z
  .object({
    amount: z.enum(["full", "excess", "custom"]).meta({
      description:
        "`full`: everything the invoice still owes back; `excess`: only what an overpaid invoice received beyond " +
        "its amount; `custom`: `custom_amount`, up to what is owed.",
    }),
    custom_amount: amount.optional().meta({ description: "Only with `amount: custom`, in the coin paid." }),
    rate: z.enum(["payment", "now"]).default("payment").meta({
      description:
        "A refund the customer takes in another coin is worth the coin paid at the payment's rate or today's.",
    }),
    network_fee: z.enum(["merchant", "customer"]).default("merchant").meta({
      description: "Who pays the network fee: your balance, or it comes off what the customer receives.",
    }),
    currencies: z
      .array(cryptoCurrencyCode)
      .max(12)
      .default([])
      .meta({ description: "Coins the customer may choose besides the one they paid with." }),
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(90)
      .optional()
      .meta({ description: "Days the claim link works, 1 to 90; 30 if absent." }),
  })
  .superRefine((body, ctx) => {
    if (body.amount === "custom" && body.custom_amount === undefined)
      ctx.addIssue({ code: "custom", path: ["custom_amount"], message: "Enter the amount to refund." });
    if (body.amount !== "custom" && body.custom_amount !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["custom_amount"],
        message: "An amount is only for a custom refund.",
      });
  })
  .meta({ id: "RefundTerms" });

export type RefundTermsRequest = z.output<typeof refundTermsRequest>;

/** The terms lib/refunds takes, from the request. */
export function refundTermsOf(body: RefundTermsRequest): RefundTerms {
  return {
    amount: body.amount === "custom" ? { kind: "custom", units: body.custom_amount! } : { kind: body.amount },
    rateBasis: body.rate,
    feePaidBy: body.network_fee,
    currencies: body.currencies,
    expiresInSeconds: body.expires_in_days === undefined ? undefined : body.expires_in_days * 24 * 3600,
  };
}

const payoutOption = z.object({
  currency: z.string(),
  receives: wireAmount.meta({ description: "What reaches the customer's address." }),
  network_fee: wireAmount,
  minimum: wireAmount.meta({ description: "The network's smallest payout." }),
  is_under_minimum: z.boolean(),
  debit: wireAmount.nullable().meta({
    description:
      "What the claim's payout would take from your balance in the invoice currency at today's rate, fees " +
      "included; null under the minimum or when no rate is available.",
  }),
  is_insufficient: z.boolean().meta({
    description:
      "Your balance does not cover `debit` now: a claim is refused (the customer is told to try later) until it does.",
  }),
});

export const refundPreviewResponse = z
  .object({
    invoice_foreign_id: z.string(),
    currency: z.string().meta({ description: "The coin the customer paid." }),
    owed: wireAmount.meta({ description: "What the invoice owes back in that coin." }),
    left: wireAmount.meta({ description: "What no refund covers yet." }),
    amount: wireAmount.meta({ description: "What this refund would settle, in the coin paid." }),
    options: z
      .array(payoutOption)
      .meta({ description: "What the customer receives per coin, the one paid first." }),
    is_under_minimum: z
      .boolean()
      .meta({ description: "Every allowed coin falls under its network's minimum." }),
    alternatives: z
      .object({ larger_amount: wireAmount, other_currencies: z.array(z.string()) })
      .nullable()
      .meta({
        description: "When the coin paid is under its minimum: a larger amount, or coins that would work.",
      }),
    balance: z.object({ currency: z.string(), available: wireAmount }).nullable().meta({
      description: "Your available balance in the invoice currency, which the claim's payout draws on.",
    }),
  })
  .meta({ id: "RefundPreview" });

export const refundResponse = z
  .object({
    id: z.int(),
    invoice_id: z.int(),
    invoice_foreign_id: z.string(),
    status: z.enum(["offered", "claimed", "cancelled", "expired"]),
    currency: z.string().meta({ description: "The coin the customer paid." }),
    amount: wireAmount.meta({ description: "What this refund settles, in the coin paid." }),
    amount_kind: z.enum(["full", "excess", "custom"]),
    rate: z.enum(["payment", "now"]),
    network_fee: z.enum(["merchant", "customer"]),
    currencies: z
      .array(z.string())
      .meta({ description: "The coins the customer may choose, the one paid first." }),
    claim: z
      .object({ currency: z.string(), address: z.string(), tag: z.string().nullable() })
      .nullable()
      .meta({ description: "Where the customer asked for it, once claimed." }),
    payout: z
      .object({
        id: z.int(),
        status: z.string(),
        amount: wireAmount,
        currency: z.string(),
        txid: z.string().nullable(),
      })
      .nullable()
      .meta({ description: "The payout sending it, once claimed: a withdrawal with its own callbacks." }),
    expires_at: z.string(),
    created_at: z.string(),
    created_by: z.string().meta({ description: "Who offered it: a team member's e-mail or an API key." }),
    claim_url: z.string().nullable().meta({
      description:
        "The customer's claim page: in the answer that creates the refund (the checkout links to it too).",
    }),
  })
  .meta({ id: "Refund" });
export type RefundResponse = z.output<typeof refundResponse>;

const REFUND_DESCRIPTION =
  "Kassa extension. An invoice owes its customer money when it failed short or was overpaid. A refund offers it on your terms; the customer claims it on a " +
  "hosted page (`claim_url`) with their own address, and the payout goes through the withdrawal engine (limits, " +
  "approvals, callbacks). Each change of a refund is a `refund.<status>` callback (`refund.offered`, " +
  "`refund.claimed`, `refund.cancelled`, `refund.expired`) on the invoice's transaction, its body the refund object.";

export const previewRefundEndpoint = defineEndpoint({
  method: "POST",
  path: "/invoices/{foreign_id}/refunds/preview",
  summary: "Preview a refund",
  description: `${REFUND_DESCRIPTION} The preview shows what the customer would receive on these terms, without offering anything.`,
  tag: "Refunds",
  isSigned: true,
  request: refundTermsRequest,
  response: refundPreviewResponse,
  successStatus: 200,
});

export const createRefundEndpoint = defineEndpoint({
  method: "POST",
  path: "/invoices/{foreign_id}/refunds/create",
  summary: "Offer a refund",
  description:
    `${REFUND_DESCRIPTION} Refused with 400 when the invoice owes nothing, when the terms ask more than is left, or ` +
    "when every allowed coin would fall under its network's minimum (the message says what would work). The " +
    "customer is e-mailed the link when the invoice has `email_user`.",
  tag: "Refunds",
  isSigned: true,
  request: refundTermsRequest,
  response: refundResponse,
  isIdempotent: true,
  movesMoney: true,
  successStatus: 201,
});

export const listRefundsEndpoint = defineEndpoint({
  method: "POST",
  path: "/invoices/{foreign_id}/refunds/list",
  summary: "List an invoice's refunds",
  description:
    "Every refund of the invoice, newest first, each with its state and, once claimed, its payout.",
  tag: "Refunds",
  isSigned: true,
  request: z.object({}),
  response: z.array(refundResponse),
  successStatus: 200,
});

export const cancelRefundEndpoint = defineEndpoint({
  method: "POST",
  path: "/invoices/{foreign_id}/refunds/{refund_id}/cancel",
  summary: "Cancel an unclaimed refund",
  description:
    "The link stops working and what the refund held is owed again. A claimed refund cannot be cancelled (its " +
    "payout is on its way): 400 `refund_closed`. Cancelling a cancelled refund answers it as it is.",
  tag: "Refunds",
  isSigned: true,
  request: z.object({}),
  response: refundResponse,
  isIdempotent: true,
  movesMoney: true,
  successStatus: 200,
});
