import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { FIX_PERIOD_SECONDS, fixExchangeQuote } from "@/lib/exchanges/fix-exchange-quote";
import { formatAmount } from "@/lib/money";
import { getConfig } from "@/lib/runtime";
import { exchangeCalculateEndpoint } from "@/lib/schemas/exchange";

/** A quote whose price holds for the fix period, kept so that /exchange/fixed can execute it. */
export const POST = withMerchantSignature(exchangeCalculateEndpoint, async ({ db, merchantId, body }) => {
  const quote = await fixExchangeQuote(db, {
    merchantId,
    senderCurrency: body.sender_currency,
    receiverCurrency: body.receiver_currency,
    senderAmount: body.sender_amount,
    receiverAmount: body.receiver_amount,
    pricing: getConfig().pricing,
  });
  return {
    sender_amount: formatAmount(quote.senderAmount),
    sender_currency: quote.senderCurrency,
    receiver_amount: formatAmount(quote.receiverAmount),
    receiver_currency: quote.receiverCurrency,
    fee_amount: formatAmount(quote.feeAmount),
    fee_currency: quote.receiverCurrency,
    price: formatAmount(quote.price),
    ts_fixed: Math.floor(quote.fixedAt.getTime() / 1000),
    ts_release: Math.floor(quote.releaseAt.getTime() / 1000),
    fix_period: FIX_PERIOD_SECONDS,
  };
});
