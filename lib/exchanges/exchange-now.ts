import "server-only";

import type { Clock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { inBalanceQueue } from "@/lib/ledger/balance-queue";
import type { Pricing } from "@/lib/rates/pricing";
import { mapExchangeError } from "./map-exchange-error";
import { type ExchangePrice, priceExchange } from "./price-exchange";
import { recordExchange } from "./record-exchange";
import type { ExchangeOrder } from "./to-exchange-order";

export type AcceptedExchange = { id: number; foreignId: string; price: ExchangePrice };

/**
 * /exchange/now: exchanges at the rate of the moment (no quote needed), from `senderAmount` or
 * `receiverAmount`. The sender balance is debited at once; the job confirms it (settle-exchange.ts).
 */
export async function exchangeNow(
  db: Db,
  input: ExchangeOrder & { pricing: Pricing; clock?: Clock },
): Promise<AcceptedExchange> {
  const amountField = input.senderAmount !== undefined ? "sender_amount" : "receiver_amount";
  const price = await priceExchange(db, input);
  try {
    // The debit waits its turn for the sender balance (lib/ledger/balance-queue.ts).
    const record = () =>
      inTransaction(db, (tx) =>
        recordExchange(tx, {
          merchantId: input.merchantId,
          apiKeyId: input.apiKeyId,
          foreignId: input.foreignId,
          kind: "now",
          price,
          quoteId: null,
          amountField,
          clock: input.clock,
        }),
      );
    const id = await inBalanceQueue(input.merchantId, price.senderCurrency, record);
    return { id, foreignId: input.foreignId, price };
  } catch (error) {
    throw (
      mapExchangeError(error, {
        amountField,
        senderCurrency: price.senderCurrency,
        senderAmount: price.senderAmount,
      }) ?? error
    );
  }
}
