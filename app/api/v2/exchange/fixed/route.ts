import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { exchangeFixed } from "@/lib/exchanges/exchange-fixed";
import { toExchangeResponse } from "@/lib/exchanges/to-exchange-response";
import { exchangeFixedEndpoint } from "@/lib/schemas/exchange";

export const POST = withMerchantSignature(exchangeFixedEndpoint, async ({ db, merchantId, body }) =>
  toExchangeResponse(
    await exchangeFixed(db, {
      merchantId,
      foreignId: body.foreign_id,
      senderCurrency: body.sender_currency,
      receiverCurrency: body.receiver_currency,
      senderAmount: body.sender_amount,
      receiverAmount: body.receiver_amount,
      price: body.price,
    }),
  ),
);
