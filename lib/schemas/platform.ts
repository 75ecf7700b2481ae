import "server-only";

import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { wireAmount } from "./amount";
import { emptyBody } from "./common";

export const pingEndpoint = defineEndpoint({
  method: "GET",
  path: "/ping",
  summary: "Check that the API is up",
  description: "No authentication. Answers the plain text `OK` while the service and its database respond.",
  tag: "Platform",
  isSigned: false,
  isText: true,
  response: z.literal("OK"),
  successStatus: 200,
});

export const currencyEntry = z
  .object({
    id: z.int(),
    type: z.enum(["crypto", "fiat"]),
    currency: z.string().meta({ example: "BTC" }),
    name: z.string(),
    network: z
      .string()
      .nullable()
      .meta({ description: "The network a crypto currency moves on; null for fiat." }),
    minimum_amount: wireAmount.meta({ description: "Smallest deposit or invoice amount accepted." }),
    minimum_withdrawal_amount: wireAmount,
    deposit_fee_percent: z.string().meta({ example: "0.5" }),
    withdrawal_fee_percent: z.string().meta({ example: "0" }),
    withdrawal_network_fee: wireAmount.meta({ description: "Flat network fee added to each withdrawal." }),
    precision: z.int().meta({ description: "Fraction digits accepted in amounts of this currency." }),
    confirmations_required: z.int(),
    tag_supported: z.boolean().meta({ description: "Withdrawals to this network may carry a tag or memo." }),
    tag_required: z.boolean().meta({ description: "Withdrawals to this network must carry a tag or memo." }),
    tag_name: z.string().nullable().meta({ example: "destination tag" }),
  })
  .meta({ id: "Currency" });

export const currenciesListRequest = z
  .object({
    visible: z
      .boolean()
      .optional()
      .meta({
        description:
          "true or absent: the currencies offered here. false: the currencies of the registry that are not offered " +
          "(in production, those without a real network; in sandbox mode usually none).",
      }),
  })
  .meta({ id: "CurrenciesListRequest" });

export const currenciesListEndpoint = defineEndpoint({
  method: "POST",
  path: "/currencies/list",
  summary: "List supported currencies",
  description: "The currency registry: limits, fees, confirmations and tag rules per currency.",
  tag: "Platform",
  isSigned: true,
  request: currenciesListRequest,
  response: z.array(currencyEntry),
  successStatus: 200,
});

export const accountEntry = z
  .object({
    currency: z.string().meta({ example: "EUR" }),
    type: z.enum(["crypto", "fiat"]),
    balance: wireAmount,
  })
  .meta({ id: "Account" });

export const accountsListEndpoint = defineEndpoint({
  method: "POST",
  path: "/accounts/list",
  summary: "List balances",
  description: "Every currency with the merchant's balance in it, including zero balances.",
  tag: "Platform",
  isSigned: true,
  request: emptyBody,
  response: z.array(accountEntry),
  successStatus: 200,
});
