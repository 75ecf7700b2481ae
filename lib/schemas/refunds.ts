import "server-only";

import { z } from "zod";
import type { RefundTerms } from "@/lib/refunds/refund-terms";
import { amount } from "./amount";
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
    amount: z.enum(["full", "excess", "custom"]),
    custom_amount: amount.optional(),
    rate: z.enum(["payment", "now"]).default("payment"),
    network_fee: z.enum(["merchant", "customer"]).default("merchant"),
    currencies: z.array(cryptoCurrencyCode).max(12).default([]),
    expires_in_days: z.number().int().min(1).max(90).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.amount === "custom" && body.custom_amount === undefined)
      ctx.addIssue({ code: "custom", path: ["custom_amount"], message: "Enter the amount to refund." });
  });

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
