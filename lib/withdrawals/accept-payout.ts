import "server-only";

import type { Db } from "@/lib/db/client";
import { formatAmount } from "@/lib/money";
import { type CreateWithdrawalInput, createWithdrawal } from "./create-withdrawal";

/** The dashboard's payout forms: creates the withdrawal and answers what the confirmation screen shows. */
export async function acceptPayout(db: Db, input: CreateWithdrawalInput) {
  const { id, price, status } = await createWithdrawal(db, input);
  return {
    id,
    status,
    total_debit: formatAmount(price.totalDebit),
    sent: formatAmount(price.sent),
    target: price.target,
  };
}
