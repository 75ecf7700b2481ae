import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { exactNumbersAsText } from "@/lib/json";
import { amount, refinePrecision, wireAmount } from "./amount";
import { endUserReference, receiver, sender } from "./common";
import { cryptoCurrencyCode, currencyCode } from "./fields";

/**
 * A withdrawal's foreign_id may be any JSON value (spec 2.4); it is echoed as given. For
 * uniqueness it is compared by its text: a string as it is, anything else as compact JSON.
 */
export const anyForeignId = z
  .unknown()
  // A number with more digits than a double holds (a 20-digit order number), anywhere inside the
  // value, keeps its exact digits as text: echoed as a string, compared as its digits.
  .transform(exactNumbersAsText)
  .superRefine((value, ctx) => {
    if (value === undefined || value === null || value === "") {
      ctx.addIssue({ code: "custom", message: "The :attribute field is required." });
      return;
    }
    if (foreignIdText(value).length > 255) {
      ctx.addIssue({ code: "custom", message: "The :attribute may not be greater than 255 characters." });
    }
  })
  .meta({
    description: "Your unique id for this withdrawal, in any format; echoed as given.",
    example: "payout-7731",
  });

export function foreignIdText(value: unknown): string {
  return typeof value === "string" ? value.trim() : JSON.stringify(value);
}

const tag = z
  .string()
  .trim()
  .max(64)
  .optional()
  .meta({ description: "Tag or memo for networks that use one (XRP destination tag); may be empty." });

/**
 * The fields of spec 2.4 that price a withdrawal; the dashboard's quote picks its fields from here
 * (lib/schemas/dashboard.ts), so a quote and the withdrawal it announces are validated alike.
 */
export const withdrawalFields = z.object({
  currency: currencyCode.meta({ description: "The balance to withdraw from (source currency)." }),
  amount: amount
    .optional()
    .meta({ description: "Amount in the source currency. Exactly one of amount and amount_to." }),
  amount_to: amount
    .optional()
    .meta({ description: "Amount to send in convert_to. Exactly one of amount and amount_to." }),
  address: z.string().trim().min(1).max(128),
  foreign_id: anyForeignId,
  end_user_reference: endUserReference,
  convert_to: cryptoCurrencyCode.optional().meta({ description: "Convert to this currency and send it." }),
  tag,
});

/** Exactly one of `amount` and `amount_to`, and `amount_to` only with `convert_to` (spec 2.4). */
export function refineOneAmount(
  value: { amount?: bigint; amount_to?: bigint; convert_to?: string },
  ctx: z.core.$RefinementCtx,
) {
  const hasAmount = value.amount !== undefined;
  const hasAmountTo = value.amount_to !== undefined;
  if (hasAmount && hasAmountTo) {
    const message = "Only one of amount or amount_to may be specified.";
    ctx.addIssue({ code: "custom", path: ["amount"], message });
    ctx.addIssue({ code: "custom", path: ["amount_to"], message });
  } else if (!hasAmount && !hasAmountTo) {
    ctx.addIssue({
      code: "custom",
      path: ["amount"],
      message: "The amount field is required when amount_to is not present.",
    });
  } else if (hasAmountTo && value.convert_to === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["amount_to"],
      message: "The amount to field may only be used together with convert_to.",
    });
  }
}

/** `amount` is in `currency`, `amount_to` in `convert_to`. */
export const withdrawalPrecision = refinePrecision({
  amount: "currency",
  amount_to: "convert_to",
});

/** Spec 2.4. */
export const withdrawalRequest = withdrawalFields
  .and(sender)
  .and(receiver)
  .superRefine(refineOneAmount)
  .superRefine(withdrawalPrecision)
  .meta({ id: "WithdrawalRequest" });
export type WithdrawalRequest = z.output<typeof withdrawalRequest>;

/**
 * `processing`, or `pending` when the withdrawal is over one of the merchant's limits and waits for
 * an approver in the dashboard (its funds reserved); see DESIGN.md section 6.
 */
const withdrawalCreatedStatus = z.enum(["processing", "pending"]).meta({
  description:
    "`processing`; `pending` when the withdrawal is over one of your withdrawal limits and waits for another user " +
    "of your account to approve it in the dashboard (the funds are reserved meanwhile).",
});

export const withdrawalResponse = z
  .object({
    id: z.int(),
    foreign_id: z.unknown().meta({ description: "As sent." }),
    end_user_reference: z.string(),
    type: z.enum(["withdrawal", "withdrawal_exchange"]),
    status: withdrawalCreatedStatus,
    amount: wireAmount.meta({ description: "The amount withdrawn, in the source currency (before fees)." }),
    sender_amount: wireAmount.meta({
      description:
        "The amount withdrawn, as the public API reports it: equal to `amount`. The fees, debited in addition, are " +
        "in `fees` of transactions/info and the callbacks.",
    }),
    sender_currency: z.string(),
    receiver_currency: z.string(),
    receiver_amount: wireAmount.meta({ description: "What arrives at the address." }),
  })
  .meta({ id: "Withdrawal" });

export const withdrawalEndpoint = defineEndpoint({
  method: "POST",
  path: "/withdrawal/crypto",
  movesMoney: true,
  summary: "Withdraw crypto, with or without conversion",
  description:
    "Without `convert_to`, sends `amount` of `currency` (a crypto balance). With `convert_to`, debits `currency` " +
    "(for example EUR) and sends the converted amount at the current rate (spread included). The balance is debited " +
    "at once, fees included; a withdrawal the network refuses or an operator rejects is returned to the balance. " +
    "Over one of your withdrawal limits (of `currency`, or of `convert_to` for what it sends) it is created " +
    "`pending` and waits for approval in the dashboard; declined, its funds return.",
  tag: "Withdrawals",
  isSigned: true,
  request: withdrawalRequest,
  response: withdrawalResponse,
  isIdempotent: true,
  successStatus: 201,
});

/** Spec 2.5 (with `tag`, which XRP needs, as an addition). */
export const instantWithdrawalRequest = z
  .object({
    sender_currency: cryptoCurrencyCode,
    sender_amount: amount,
    address: z.string().trim().min(1).max(128),
    foreign_id: anyForeignId,
    end_user_reference: endUserReference,
    tag,
  })
  .and(sender)
  .and(receiver)
  .superRefine(refinePrecision({ sender_amount: "sender_currency" }))
  .meta({ id: "InstantWithdrawalRequest" });
export type InstantWithdrawalRequest = z.output<typeof instantWithdrawalRequest>;

export const instantWithdrawalEndpoint = defineEndpoint({
  method: "POST",
  path: "/crypto/withdrawal_instant",
  movesMoney: true,
  summary: "Instant withdrawal",
  description:
    "Sends `sender_amount` of `sender_currency` at once, fees debited in addition. Your withdrawal limits apply " +
    "here too: over one, it is created `pending` and waits for approval.",
  tag: "Withdrawals",
  isSigned: true,
  request: instantWithdrawalRequest,
  response: z
    .object({
      id: z.int(),
      foreign_id: z.unknown(),
      end_user_reference: z.string(),
      type: z.literal("withdrawal_instant"),
      status: withdrawalCreatedStatus,
      sender_currency: z.string(),
      sender_amount: wireAmount,
    })
    .meta({ id: "InstantWithdrawal" }),
  isIdempotent: true,
  successStatus: 201,
});

/** Dashboard: approve or decline a pending withdrawal (confirmed by the session's step-up window). */
export const withdrawalDecisionRequest = z.object({});

/** Dashboard: set the withdrawal limits of one currency (decimal strings, as typed). */
export const withdrawalLimitsRequest = z.object({
  currency: z.string().trim().toUpperCase().min(1, "Choose a currency.").max(10),
  per_withdrawal: z
    .string()
    .trim()
    .min(1, "Type the largest amount one withdrawal may send without approval.")
    .max(40),
  per_day: z.string().trim().max(40).optional(),
});

/** Dashboard: remove the withdrawal limits of one currency. */
export const withdrawalLimitsRemoveRequest = z.object({
  currency: z.string().trim().toUpperCase().min(1).max(10),
});
