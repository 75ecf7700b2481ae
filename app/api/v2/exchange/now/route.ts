import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { exchangeNow } from "@/lib/exchanges/exchange-now";
import { toExchangeOrder } from "@/lib/exchanges/to-exchange-order";
import { toExchangeResponse } from "@/lib/exchanges/to-exchange-response";
import { getConfig } from "@/lib/runtime";
import { exchangeNowEndpoint } from "@/lib/schemas/exchange";

export const POST = withMerchantSignature(exchangeNowEndpoint, async ({ db, merchantId, apiKeyId, body }) =>
  toExchangeResponse(
    await exchangeNow(db, {
      ...toExchangeOrder(merchantId, body),
      apiKeyId,
      pricing: getConfig().pricing,
    }),
  ),
);
