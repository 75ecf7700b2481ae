import "server-only";

import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { withoutNullOptionals } from "./absent-nulls";
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
    end_user_reference: endUserReference.optional(),
    sender_type: z.enum(["natural", "legal"]).optional(),
    sender_data: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "As in spec 2.1, when end_user_reference is sent." }),
  })
  .superRefine((value, ctx) => {
    const hasCustomer =
      value.end_user_reference !== undefined ||
      value.sender_type !== undefined ||
      value.sender_data !== undefined;
    if (!hasCustomer) return;
    if (value.end_user_reference === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["end_user_reference"],
        message: "The :attribute field is required with sender data.",
      });
    }
    // sender_data is a record here (optional as a whole), so its own null optionals are read here.
    const parsed = sender.safeParse(withoutNullOptionals(sender, value));
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({ ...issue, code: "custom", message: issue.message });
  })
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
    end_user_reference: z.string().nullable().meta({
      description:
        "The customer the address was taken for (the first request that named one); reported on its deposits too.",
    }),
  })
  .meta({ id: "DepositAddress" });

export const takeAddressEndpoint = defineEndpoint({
  method: "POST",
  path: "/addresses/take",
  summary: "Take a permanent deposit address",
  description:
    "One address per customer (`foreign_id`) and currency, reusable without limit; asking again returns the same " +
    "address. Every payment to it becomes a `deposit` transaction credited to your balance; a payment below the " +
    "currency's `minimum_amount` is held instead (status `cancelled`, error `Transaction amount less than minimum " +
    "deposit.`), with a callback only when the below-minimum callback is turned on.",
  tag: "Deposits",
  isSigned: true,
  request: takeAddressRequest,
  response: addressResponse,
  isIdempotent: true,
  successStatus: 201,
});
