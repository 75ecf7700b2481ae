import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { formatAmount } from "@/lib/money";
import { formatRate, IDENTITY_RATE } from "@/lib/rates/rate";
import { getConfig } from "@/lib/runtime";
import { exchangeCalculateEndpoint } from "@/lib/schemas/withdrawals";
import { priceWithdrawal } from "@/lib/withdrawals/price-withdrawal";

/** The quote a conversion withdrawal would get now, computed by the same function the withdrawal uses. */
export const POST = withMerchantSignature(exchangeCalculateEndpoint, async ({ db, body }) => {
  const price = await priceWithdrawal(db, {
    source: body.sender_currency,
    target: body.receiver_currency,
    amount: body.sender_amount,
    amountTo: body.receiver_amount,
    spreadPpm: getConfig().spreadPpm,
    fields: { amount: "sender_amount", amountTo: "receiver_amount" },
  });
  const now = Math.floor(Date.now() / 1000);
  return {
    sender_amount: formatAmount(price.principal),
    sender_currency: price.source,
    receiver_amount: formatAmount(price.sent),
    receiver_currency: price.target,
    fee_amount: formatAmount(price.withdrawalFee + price.networkFee),
    fee_currency: price.source,
    price: formatRate(price.rate ?? IDENTITY_RATE),
    ts_fixed: now,
    ts_release: now,
    fix_period: 0,
  };
});
