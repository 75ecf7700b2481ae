import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { amount, refinePrecision, wireAmount } from "./amount";
import { cryptoCurrencyCode } from "./fields";

export const sandboxPaymentRequest = z
  .object({
    address: z.string().trim().min(1).max(128),
    currency: cryptoCurrencyCode,
    amount,
    tag: z.string().trim().max(20).optional(),
    sender_address: z.string().trim().min(1).max(128).optional().meta({
      description: "The paying wallet's address, screened like a real chain's sender (compliance review).",
    }),
  })
  .superRefine(refinePrecision({ amount: "currency" }))
  .meta({ id: "SandboxPaymentRequest" });

export const sandboxBlocksRequest = z.object({
  currency: cryptoCurrencyCode,
  count: z.int().min(1).max(100),
});

export const sandboxPaymentEndpoint = defineEndpoint({
  method: "POST",
  path: "/sandbox/payments",
  summary: "Sandbox: send a payment",
  description:
    "Sandbox mode only (404 otherwise). A customer's wallet sends `amount` to `address`; the transaction enters " +
    "the mempool with 0 confirmations and is seen by Kassa's watcher like a real one.",
  tag: "Sandbox",
  isSigned: true,
  isSandboxOnly: true,
  request: sandboxPaymentRequest,
  response: z.object({
    txid: z.string(),
    currency: z.string(),
    address: z.string(),
    tag: z.string().nullable(),
    amount: wireAmount,
    confirmations: z.int(),
    is_recognized: z
      .boolean()
      .meta({ description: "Whether the address is one of Kassa's deposit addresses." }),
  }),
  successStatus: 201,
});

export const sandboxBlocksEndpoint = defineEndpoint({
  method: "POST",
  path: "/sandbox/blocks",
  summary: "Sandbox: mine blocks",
  description:
    "Sandbox mode only (404 otherwise). Mines `count` blocks on the currency's network; the mempool goes into the first.",
  tag: "Sandbox",
  isSigned: true,
  isSandboxOnly: true,
  request: sandboxBlocksRequest,
  response: z.object({ currency: z.string(), height: z.int(), blocks: z.int(), transactions: z.int() }),
  successStatus: 201,
});
