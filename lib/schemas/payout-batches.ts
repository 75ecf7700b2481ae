import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { wireAmount } from "./amount";
import { endUserReference, receiver, sender } from "./common";
import { refineOneAmount, withdrawalFields, withdrawalPrecision } from "./withdrawals";

/** The body cap of bulk endpoints: 1,000 payouts as JSON, or a 1 MiB file as base64, with room to spare. */
export const BATCH_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/** The most payouts one bulk payout carries (a file or a request). */
export const MAX_BATCH_ROWS = 1000;

/**
 * One payout of a bulk payout: POST /withdrawal/crypto's fields without the sender (the batch has
 * one), `end_user_reference` optional (the payout's `foreign_id` stands in for it).
 */
export const payoutRow = withdrawalFields
  .extend({
    end_user_reference: endUserReference
      .optional()
      .meta({ description: "Your reference of the person paid; this payout's foreign_id when absent." }),
  })
  .and(receiver)
  .superRefine(refineOneAmount)
  .superRefine(withdrawalPrecision)
  .meta({ id: "BulkPayoutRow" });
export type PayoutRow = z.output<typeof payoutRow>;

export const batchReference = z.string().trim().min(1).max(100).meta({
  description:
    "Your unique name for this bulk payout. Sent again, the same payouts answer the first bulk payout and send nothing.",
  example: "affiliates-2026-11",
});

/** POST /api/v2/withdrawal/batch: one sender, up to 1,000 payouts, all or none. */
export const payoutBatchRequest = z
  .object({
    reference: batchReference,
    payouts: z
      .array(z.unknown())
      .min(1)
      .max(MAX_BATCH_ROWS)
      .meta({
        description: `1 to ${MAX_BATCH_ROWS} payouts (BulkPayoutRow), each checked as POST /withdrawal/crypto checks one.`,
      }),
  })
  .and(sender)
  .meta({ id: "BulkPayoutRequest" });
export type PayoutBatchRequest = z.output<typeof payoutBatchRequest>;

const batchPayout = z.object({
  row: z.int().meta({ description: "Its position in the request, from 1." }),
  id: z.int(),
  foreign_id: z.unknown(),
  type: z.enum(["withdrawal", "withdrawal_exchange"]),
  status: z.string().meta({
    description:
      "As transactions/info reports it: pending (awaiting approval), processing, confirmed, cancelled.",
  }),
  amount: wireAmount.meta({ description: "Debited from `sender_currency`, before fees." }),
  fee: wireAmount.meta({ description: "Withdrawal and network fees, in `sender_currency`." }),
  sender_currency: z.string(),
  receiver_currency: z.string(),
  receiver_amount: wireAmount,
  address: z.string(),
  tag: z.string().nullable(),
  txid: z.string().nullable(),
});

export const payoutBatchResponse = z
  .object({
    id: z.int(),
    reference: z.string(),
    status: z.enum(["awaiting_approval", "declined", "processing", "completed"]).meta({
      description:
        "awaiting_approval: over one of your limits (counted on the batch's total), every payout waits for one " +
        "approval of the whole batch; declined: an approver declined it or its approval time ran out, funds " +
        "returned; processing: payouts on their way; completed: every payout reached a final status.",
    }),
    created_at: z.int().meta({ description: "Unix seconds." }),
    totals: z.array(
      z.object({
        currency: z.string(),
        amount: wireAmount,
        fee: wireAmount,
        total_debit: wireAmount,
      }),
    ),
    payouts: z.array(batchPayout),
  })
  .meta({ id: "BulkPayout" });

export const payoutBatchEndpoint = defineEndpoint({
  method: "POST",
  path: "/withdrawal/batch",
  movesMoney: true,
  summary: "Send payouts in bulk",
  description:
    "Kassa extension. Up to 1,000 crypto payouts, with or without conversion, checked as one: if any payout is " +
    "invalid (address, tag, receiver data, minimum, a foreign_id used before or twice) the answer is 400 with " +
    "`errors` keyed `payouts.<index>.<field>` (index from 0) and nothing is sent. Your balances must cover the " +
    "total, fees included. Your withdrawal limits count the batch's total: over one, every payout is created " +
    "`pending` and the batch waits for one approval in the dashboard. Idempotent by `reference`: the same " +
    "reference with the same payouts answers the first batch again and sends nothing; with other payouts, 400.",
  tag: "Withdrawals",
  isSigned: true,
  request: payoutBatchRequest,
  response: payoutBatchResponse,
  isIdempotent: true,
  bodyLimitBytes: BATCH_BODY_LIMIT_BYTES,
  successStatus: 201,
});

export const payoutBatchInfoEndpoint = defineEndpoint({
  method: "POST",
  path: "/withdrawal/batch/info",
  summary: "A bulk payout's progress",
  description:
    "Kassa extension. The bulk payout with this `reference`, each payout with its status and txid.",
  tag: "Withdrawals",
  isSigned: true,
  request: z.object({ reference: batchReference }),
  response: payoutBatchResponse,
  successStatus: 200,
});

/** The largest file as base64 in a request (4 characters per 3 bytes). */
const MAX_FILE_BASE64 = Math.ceil((1024 * 1024) / 3) * 4;

/**
 * The dashboard's bulk payout from a file: the file's bytes (base64, as read by the browser), the
 * sender all its payouts are sent for, and optionally a reference and the choice to send only the
 * lines without problems.
 */
export const payoutFileRequest = z
  .object({
    file: z
      .string({ error: "Choose a CSV file." })
      .min(1, "Choose a CSV file.")
      .max(MAX_FILE_BASE64, "The file is larger than 1 MB: split it into several files.")
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "The file could not be read: choose it again."),
    reference: batchReference.optional(),
    send_valid_rows: z.boolean().optional(),
  })
  .and(sender);
export type PayoutFileRequest = z.output<typeof payoutFileRequest>;

/** The dashboard form's fields besides the file (the file is checked by the server only). */
export const payoutFileForm = z.object({ reference: batchReference.optional() }).and(sender);

/** A bulk payout's status: derived from its payouts' (lib/payout-batches/read-payout-batch.ts). */
export type BatchStatus = "awaiting_approval" | "declined" | "processing" | "completed";

/** A payout of a bulk payout as the dashboard shows it (the API's leaves out the last two). */
export type BatchPayoutView = {
  row: number;
  id: number;
  foreign_id: unknown;
  type: "withdrawal" | "withdrawal_exchange";
  /** As transactions/info reports it. */
  status: string;
  /** Kassa's own status (the dashboard's words come from it). */
  internal_status: string;
  amount: string;
  fee: string;
  sender_currency: string;
  receiver_currency: string;
  receiver_amount: string;
  address: string;
  tag: string | null;
  txid: string | null;
  error: string | null;
};

/** GET /api/dashboard/payout-batches/<id> (with `can_decide`), and the engine's view of a batch. */
export type PayoutBatchView = {
  id: number;
  reference: string;
  status: BatchStatus;
  created_at: number;
  totals: { currency: string; amount: string; fee: string; total_debit: string }[];
  payouts: BatchPayoutView[];
  /** Who sent it in the dashboard; null through the API. */
  created_by_user_id: number | null;
};

/** One line of GET /api/dashboard/payout-batches. */
export type PayoutBatchSummary = {
  id: number;
  reference: string;
  created_at: string;
  status: BatchStatus;
  payouts: number;
  /** How many payouts reached each of Kassa's statuses. */
  by_status: Record<string, number>;
  totals: { currency: string; total_debit: string }[];
  created_by: string | null;
  /** False when the viewer sent it: another user must decide it. */
  can_decide: boolean;
  approval_expires_at: string | null;
};

/** POST /api/dashboard/payout-batches/check: a file read and checked, nothing sent. */
export type FileCheck =
  | { kind: "file_error"; message: string }
  | { kind: "already_sent"; batch_id: number; reference: string; created_at: string }
  | {
      kind: "checked";
      /** The reference the batch will have unless the merchant names it: the file's own fingerprint. */
      reference: string;
      payouts: number;
      valid: number;
      /** Each problem by the spreadsheet's line and the file's column. */
      errors: { line: number; column: string; message: string }[];
      totals: {
        currency: string;
        count: number;
        amount: string;
        fee: string;
        total_debit: string;
        balance: string;
        balance_after: string;
      }[];
      sent: { currency: string; amount: string }[];
      /** Why the batch (its total) waits for an approver; null when it goes out at once. */
      approval: string | null;
    };
