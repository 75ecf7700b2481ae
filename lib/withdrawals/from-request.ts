import "server-only";

import type { Pricing } from "@/lib/rates/pricing";
import type { InstantWithdrawalRequest, WithdrawalRequest } from "@/lib/schemas/withdrawals";
import type { CreateWithdrawalInput } from "./create-withdrawal";

/** POST /withdrawal/crypto (spec 2.4) as an engine input: with convert_to it is a withdrawal_exchange. */
export function withdrawalInput(
  merchantId: number,
  body: WithdrawalRequest,
  pricing: Pricing,
): CreateWithdrawalInput {
  return {
    merchantId,
    kind: body.convert_to !== undefined ? "withdrawal_exchange" : "withdrawal",
    source: body.currency,
    target: body.convert_to ?? body.currency,
    amount: body.amount,
    amountTo: body.amount_to,
    address: body.address,
    tag: body.tag,
    foreignId: body.foreign_id,
    endUserReference: body.end_user_reference,
    sender: body,
    receiver: body,
    pricing,
  };
}

/** POST /crypto/withdrawal_instant (spec 2.5) as an engine input. */
export function instantWithdrawalInput(
  merchantId: number,
  body: InstantWithdrawalRequest,
  pricing: Pricing,
): CreateWithdrawalInput {
  return {
    merchantId,
    kind: "withdrawal_instant",
    source: body.sender_currency,
    target: body.sender_currency,
    amount: body.sender_amount,
    address: body.address,
    tag: body.tag,
    foreignId: body.foreign_id,
    endUserReference: body.end_user_reference,
    sender: body,
    receiver: body,
    pricing,
    fields: { amount: "sender_amount", amountTo: "sender_amount", currency: "sender_currency" },
  };
}
