import "server-only";

import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { wireAmount } from "./amount";
import { anyForeignId } from "./withdrawals";

export const transactionInfoRequest = z
  .object({
    id: z
      .int()
      .min(1)
      .optional()
      .meta({ description: "Kassa's id of the transaction (as returned on creation)." }),
    foreign_id: anyForeignId.optional(),
    txid: z.string().trim().min(1).max(128).optional().meta({ description: "A blockchain transaction id." }),
  })
  .superRefine((value, ctx) => {
    const given = (["id", "foreign_id", "txid"] as const).filter((key) => value[key] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({ code: "custom", path: ["id"], message: "One of id, foreign_id or txid is required." });
    } else if (given.length > 1) {
      for (const key of given) {
        ctx.addIssue({ code: "custom", path: [key], message: "Send exactly one of id, foreign_id or txid." });
      }
    }
  })
  .meta({ id: "TransactionInfoRequest" });

const subTransaction = z.object({
  id: z.int(),
  currency: z.string(),
  transaction_type: z.enum(["blockchain", "internal", "exchange"]),
  type: z.string(),
  amount: wireAmount,
  address: z.string().optional(),
  tag: z.string().nullable().optional(),
  txid: z.string().nullable().optional(),
  riskscore: z.string().optional(),
  confirmations: z.string().optional(),
  currency_to: z.string().optional(),
  amount_to: wireAmount.optional(),
});

export const transactionInfoResponse = z
  .object({
    id: z.int(),
    type: z.string().meta({
      description: "invoice, deposit, deposit_exchange, withdrawal, withdrawal_exchange, withdrawal_instant",
    }),
    foreign_id: z.unknown().optional(),
    end_user_reference: z.string().optional(),
    crypto_address: z
      .object({
        id: z.int(),
        currency: z.string(),
        convert_to: z.string().optional(),
        address: z.string(),
        foreign_id: z.unknown().optional(),
        tag: z.string().nullable(),
      })
      .optional(),
    currency_sent: z
      .object({
        currency: z.string(),
        amount: wireAmount,
        remaining_amount: wireAmount
          .optional()
          .meta({ description: "Invoices: what the customer still owes of the amount asked (`amount`)." }),
      })
      .optional(),
    currency_received: z
      .object({ currency: z.string(), amount: wireAmount, amount_minus_fee: wireAmount.optional() })
      .optional(),
    transactions: z.array(subTransaction),
    fees: z.array(z.object({ type: z.string(), currency: z.string(), amount: wireAmount })),
    error: z.string().nullable(),
    status: z.enum(["cancelled", "confirmed", "declined", "not_confirmed", "pending"]),
    additional_details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "TransactionInfo" });
export type TransactionInfo = z.input<typeof transactionInfoResponse>;

export const transactionInfoEndpoint = defineEndpoint({
  method: "GET",
  path: "/transactions/info",
  summary: "Look up a transaction",
  description:
    "The body carries exactly one of `id`, `foreign_id` or `txid` (a GET with a JSON body, signed like any other; " +
    "POST with the same body works too). The answer is the object itself, without a `data` wrapper. Only your own " +
    "transactions are found; anyone else's is a 404, the same as one that does not exist.",
  tag: "Transactions",
  isSigned: true,
  isUnwrapped: true,
  request: transactionInfoRequest,
  response: transactionInfoResponse,
  successStatus: 200,
});
