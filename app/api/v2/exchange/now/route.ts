import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { exchangeNow } from "@/lib/exchanges/exchange-now";
import { toExchangeResponse } from "@/lib/exchanges/to-exchange-response";
import { getConfig } from "@/lib/runtime";
import { exchangeNowEndpoint } from "@/lib/schemas/exchange";

export const POST = withMerchantSignature(exchangeNowEndpoint, async ({ db, merchantId, body }) =>
  toExchangeResponse(
    await exchangeNow(db, {
      merchantId,
      foreignId: body.foreign_id,
      senderCurrency: body.sender_currency,
      receiverCurrency: body.receiver_currency,
      senderAmount: body.sender_amount,
      receiverAmount: body.receiver_amount,
      spreadPpm: getConfig().spreadPpm,
    }),
  ),
);
