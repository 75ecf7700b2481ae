import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { listPairs } from "@/lib/exchanges/list-pairs";
import { getConfig } from "@/lib/runtime";
import { currencyPairsEndpoint } from "@/lib/schemas/exchange";

export const POST = withMerchantSignature(currencyPairsEndpoint, ({ db, merchantId, body }) =>
  listPairs(db, {
    merchantId,
    from: body.currency_from,
    to: body.currency_to,
    pricing: getConfig().pricing,
  }),
);
