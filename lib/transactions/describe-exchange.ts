import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { exchanges, transactions } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money";
import { formatStoredRate } from "@/lib/rates/rate";
import type { TransactionInfo } from "@/lib/schemas/transactions";
import { spreadPercent } from "./info-fields";
import { wireStatus } from "./wire-status";

/**
 * transactions/info (and the `exchange` callback) for a balance-to-balance exchange: one `exchange`
 * entry from the sender currency to the receiver currency, and the fee the spread kept, in the
 * receiver currency under the public API's fee type.
 */
export async function describeExchange(db: Executor, id: number): Promise<TransactionInfo> {
  const [row] = await db
    .select({ status: transactions.status, foreignId: transactions.foreignId, exchange: exchanges })
    .from(transactions)
    .innerJoin(exchanges, eq(exchanges.transactionId, transactions.id))
    .where(eq(transactions.id, id));
  if (!row) throw new Error(`exchange ${id} does not exist`);
  const { exchange: e } = row;
  const received = formatAmount(e.receiverAmount);
  return {
    id,
    ...(row.foreignId !== null && { foreign_id: row.foreignId }),
    type: "exchange",
    currency_sent: { currency: e.senderCurrency, amount: formatAmount(e.senderAmount) },
    currency_received: { currency: e.receiverCurrency, amount: received, amount_minus_fee: received },
    transactions: [
      {
        id,
        currency: e.senderCurrency,
        currency_to: e.receiverCurrency,
        transaction_type: "exchange",
        type: "exchange",
        amount: formatAmount(e.senderAmount),
        amount_to: received,
      },
    ],
    fees: [{ type: e.feeType, currency: e.receiverCurrency, amount: formatAmount(e.feeAmount) }],
    error: "",
    status: wireStatus(row.status),
    additional_details: {
      exchange_status: row.status,
      exchange_kind: e.kind,
      price: formatAmount(e.price),
      rate: formatStoredRate(e.rateNumerator, e.rateDenominator),
      mid_rate: formatStoredRate(e.midRateNumerator, e.midRateDenominator),
      spread_percent: spreadPercent(e.spreadPpm),
      confirmed_at: e.confirmedAt?.toISOString() ?? null,
    },
  };
}
