import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { listCurrencies } from "@/lib/currencies/list-currencies";
import { toCurrencyEntry } from "@/lib/currencies/to-currency-entry";
import { currenciesListEndpoint } from "@/lib/schemas/platform";

export const POST = withMerchantSignature(currenciesListEndpoint, async ({ body }) =>
  listCurrencies({ visible: body.visible }).map(toCurrencyEntry),
);

/** Also accepted as GET with the same signed body, for clients that send reads as GET. */
export const GET = POST;
