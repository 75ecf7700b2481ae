import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { exchangeFixed } from "@/lib/exchanges/exchange-fixed";
import { toExchangeOrder } from "@/lib/exchanges/to-exchange-order";
import { toExchangeResponse } from "@/lib/exchanges/to-exchange-response";
import { exchangeFixedEndpoint } from "@/lib/schemas/exchange";

export const POST = withMerchantSignature(exchangeFixedEndpoint, async ({ db, merchantId, apiKeyId, body }) =>
  toExchangeResponse(
    await exchangeFixed(db, { ...toExchangeOrder(merchantId, body), apiKeyId, price: body.price }),
  ),
);
