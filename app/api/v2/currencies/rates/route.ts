import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { fieldError } from "@/lib/errors";
import { listPairs } from "@/lib/exchanges/list-pairs";
import { getConfig } from "@/lib/runtime";
import { currencyRatesEndpoint } from "@/lib/schemas/exchange";

export const POST = withMerchantSignature(currencyRatesEndpoint, async ({ db, merchantId, body }) => {
  const pairs = await listPairs(db, {
    merchantId,
    from: body.currency_from,
    to: body.currency_to,
    pricing: getConfig().pricing,
  });
  if (pairs.length === 0) throw fieldError({ currency_from: "Exchange is unavailable for given currencies" });
  return pairs;
});
