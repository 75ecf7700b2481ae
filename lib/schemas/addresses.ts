import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { endUserReference, sender } from "./common";
import { cryptoCurrencyCode, currencyCode, foreignId } from "./fields";

/**
 * POST /addresses/take. The public API takes `foreign_id`, `currency` and an optional `convert_to`;
 * Kassa also accepts the customer data rules of spec 2.1 (DESIGN.md section 8), optional here so
 * existing clients keep working: when `end_user_reference` is sent, the sender fields must be too.
 */
export const takeAddressRequest = z
  .object({
    foreign_id: foreignId.meta({
      description: "Your id for the customer this address belongs to.",
      example: "user-id:2048",
    }),
    currency: cryptoCurrencyCode,
    convert_to: currencyCode
      .optional()
      .meta({ description: "Convert every deposit to this currency on arrival." }),
  })
  .and(
    z.union([
      z.object({ end_user_reference: endUserReference }).and(sender),
      z.object({ end_user_reference: z.undefined(), sender_type: z.undefined(), sender_data: z.undefined() }),
    ]),
  )
  .meta({ id: "TakeAddressRequest" });

export const addressResponse = z
  .object({
    id: z.int(),
    currency: z.string(),
    convert_to: z.string().nullable(),
    address: z.string(),
    tag: z
      .string()
      .nullable()
      .meta({ description: "Destination tag (XRP); the customer must send it with the payment." }),
    foreign_id: z.string(),
  })
  .meta({ id: "DepositAddress" });

export const takeAddressEndpoint = defineEndpoint({
  method: "POST",
  path: "/addresses/take",
  summary: "Take a permanent deposit address",
  description:
    "One address per customer (`foreign_id`) and currency, reusable without limit; asking again returns the same " +
    "address. Every payment to it becomes a `deposit` transaction credited to your balance.",
  tag: "Deposits",
  isSigned: true,
  request: takeAddressRequest,
  response: addressResponse,
  successStatus: 201,
});
