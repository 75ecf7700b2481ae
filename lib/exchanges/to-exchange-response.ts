import "server-only";

import { formatAmount } from "@/lib/money";
import type { AcceptedExchange } from "./exchange-now";

/** The 201 body of /exchange/fixed and /exchange/now (api-reference.md), as the public API shapes it. */
export function toExchangeResponse({ id, foreignId, price }: AcceptedExchange) {
  return {
    id,
    foreign_id: foreignId,
    type: "exchange" as const,
    sender_amount: formatAmount(price.senderAmount),
    sender_currency: price.senderCurrency,
    receiver_amount: formatAmount(price.receiverAmount),
    receiver_currency: price.receiverCurrency,
    fee_amount: formatAmount(price.feeAmount),
    fee_currency: price.receiverCurrency,
    price: formatAmount(price.price),
    status: "processing" as const,
  };
}
