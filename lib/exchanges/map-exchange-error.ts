import "server-only";

import { fieldError } from "@/lib/errors";
import { BalanceCapError, InsufficientFundsError } from "@/lib/ledger/post-journal";
import { formatAmountShort } from "@/lib/money";
import { foreignIdTakenError } from "@/lib/transactions/foreign-id-taken";

/**
 * The field error a refused exchange write answers, or undefined for anything unexpected: a taken
 * foreign_id, a sender balance that does not cover the exchange, or a receiver balance the credit
 * would take past the amount cap (nothing was written).
 */
export function mapExchangeError(
  error: unknown,
  input: { amountField: "sender_amount" | "receiver_amount"; senderCurrency: string; senderAmount: bigint },
): Error | undefined {
  const taken = foreignIdTakenError(error);
  if (taken) return taken;
  if (error instanceof InsufficientFundsError) {
    return fieldError({
      [input.amountField]: `Insufficient funds: this exchange needs ${formatAmountShort(input.senderAmount)} ${input.senderCurrency} from your balance.`,
    });
  }
  if (error instanceof BalanceCapError) {
    return fieldError({
      [input.amountField]: `This exchange would take your ${error.currency} balance past the largest amount Kassa keeps.`,
    });
  }
  return undefined;
}
