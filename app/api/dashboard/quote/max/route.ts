import { withSession } from "@/lib/api/with-session";
import { findCurrency } from "@/lib/currencies/registry";
import { fieldError } from "@/lib/errors";
import { formatAmount } from "@/lib/money";
import { getConfig } from "@/lib/runtime";
import { maxPayout } from "../payout-headroom";

/**
 * GET ?currency=BTC&convert_to=ETH: the payout form's "Max", the largest amount to debit whose fees
 * still fit the balance (null when no payout fits).
 */
export const GET = withSession({ permission: "payouts.create" }, async ({ db, session, query }) => {
  const source = query.get("currency") ?? "";
  const target = query.get("convert_to") || source;
  if (!findCurrency(source)) throw fieldError({ currency: "Choose the balance to pay from." });
  if (findCurrency(target)?.kind !== "crypto")
    throw fieldError({ convert_to: "Choose a crypto currency to send." });
  const { available, price } = await maxPayout(db, {
    merchantId: session.merchantId,
    source,
    target,
    pricing: getConfig().pricing,
  });
  return {
    currency: source,
    available: formatAmount(available),
    max_amount: price ? formatAmount(price.principal) : null,
  };
});
