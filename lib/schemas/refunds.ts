import "server-only";

import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { amount, wireAmount } from "./amount";
import { cryptoCurrencyCode } from "./fields";

/**
 * The merchant's terms for a refund the customer claims (Kassa's extension of the public API): the
 * same choices the dashboard offers. `amount` is in the coin the customer paid.
 */
export const refundTermsRequest = z
  .object({
    amount_kind: z
      .enum(["full", "excess", "custom"])
      .default("full")
      .meta({
        description:
          "`full`: everything the invoice still owes back; `excess`: only what an overpaid invoice received beyond " +
          "its amount; `custom`: `amount`, up to what is owed.",
      }),
    amount: amount.optional().meta({ description: "Only with `amount_kind: custom`, in the coin paid." }),
    rate_basis: z.enum(["payment", "now"]).default("payment").meta({
      description:
        "For a refund the customer takes in another coin: its worth at the payment's rate or at today's.",
    }),
    fee_paid_by: z.enum(["merchant", "customer"]).default("merchant").meta({
      description: "Who pays the network fee: your balance, or it comes off what the customer receives.",
    }),
    currencies: z.array(cryptoCurrencyCode).max(20).default([]).meta({
      description: "Coins the customer may choose besides the one they paid with.",
    }),
    expires_in: z
      .int()
      .optional()
      .meta({ description: "Seconds the claim link works: 3600 to 7776000 (90 days); 30 days if absent." }),
  })
  .superRefine((terms, ctx) => {
    if (terms.amount_kind === "custom" && terms.amount === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: "The amount field is required for a custom refund.",
      });
    if (terms.amount_kind !== "custom" && terms.amount !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: "The amount field is only for a custom refund.",
      });
  })
  .meta({ id: "RefundTerms" });
export type RefundTermsRequest = z.output<typeof refundTermsRequest>;

const payoutOption = z.object({
  currency: z.string(),
  receives: wireAmount.meta({ description: "What reaches the customer's address." }),
  network_fee: wireAmount,
  minimum: wireAmount.meta({ description: "The network's smallest payout." }),
  is_under_minimum: z.boolean(),
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
  })
  .meta({ id: "RefundPreview" });

export const refundResponse = z
  .object({
    id: z.int(),
    invoice_foreign_id: z.string(),
    status: z.enum(["offered", "claimed", "cancelled", "expired"]),
    currency: z.string().meta({ description: "The coin the customer paid." }),
    amount: wireAmount.meta({ description: "What this refund settles, in the coin paid." }),
    amount_kind: z.enum(["full", "excess", "custom"]),
    rate_basis: z.enum(["payment", "now"]),
    fee_paid_by: z.enum(["merchant", "customer"]),
    currencies: z
      .array(z.string())
      .meta({ description: "The coins the customer may choose, the one paid first." }),
    claim_url: z.string().nullable().meta({
      description:
        "The customer's claim page. Only in the answer that creates the refund: Kassa keeps only a hash of its token.",
    }),
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
    claimed_at: z.string().nullable(),
    ended_at: z.string().nullable(),
  })
  .meta({ id: "Refund" });
export type RefundResponse = z.output<typeof refundResponse>;

const REFUND_DESCRIPTION =
  "Kassa extension. An invoice owes its customer money when it failed short, was overpaid, was paid late or after " +
  "a cancel, or had a payment rejected by review. A refund offers it on your terms; the customer claims it on a " +
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
