import "server-only";

import { isUniqueViolation } from "@/lib/db/errors";
import { fieldError } from "@/lib/errors";
import { FOREIGN_ID_TAKEN } from "@/lib/invoices/create-invoice";
import { InsufficientFundsError } from "@/lib/ledger/post-journal";
import { formatAmountShort } from "@/lib/money";

/**
 * The field error a refused exchange write answers, or undefined for anything unexpected: a taken
 * foreign_id, or a sender balance that does not cover the exchange (nothing was written).
 */
export function mapExchangeError(
  error: unknown,
  input: { amountField: "sender_amount" | "receiver_amount"; senderCurrency: string; senderAmount: bigint },
): Error | undefined {
  if (isUniqueViolation(error, "transactions_merchant_foreign_id_key")) return fieldError(FOREIGN_ID_TAKEN);
  if (error instanceof InsufficientFundsError) {
    return fieldError({
      [input.amountField]: `Insufficient funds: this exchange needs ${formatAmountShort(input.senderAmount)} ${input.senderCurrency} from your balance.`,
    });
  }
  return undefined;
}
