import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { isOffered } from "@/lib/currencies/offering";
import { CURRENCIES } from "@/lib/currencies/registry";
import { toCurrencyEntry } from "@/lib/currencies/to-currency-entry";
import { currenciesListEndpoint } from "@/lib/schemas/platform";

export const POST = withMerchantSignature(currenciesListEndpoint, async ({ body }) =>
  CURRENCIES.filter(
    (currency) => isOffered(currency.code) && (body.visible === false || currency.isVisible),
  ).map(toCurrencyEntry),
);

/** Also accepted as GET with the same signed body, for clients that send reads as GET. */
export const GET = POST;
