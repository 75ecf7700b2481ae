import { withSession } from "@/lib/api/with-session";
import { readBalance } from "@/lib/ledger/read-balance";
import { formatAmount } from "@/lib/money";
import { formatRate } from "@/lib/rates/rate";
import { getConfig } from "@/lib/runtime";
import { quoteRequest } from "@/lib/schemas/dashboard";
import { priceWithdrawal } from "@/lib/withdrawals/price-withdrawal";

/** What a payout would debit and send right now (the payout form's live quote and confirmation step). */
export const POST = withSession(
  { permission: "payouts.create", request: quoteRequest },
  async ({ db, body, session }) => {
    const price = await priceWithdrawal(db, {
      merchantId: session.merchantId,
      source: body.currency,
      target: body.convert_to ?? body.currency,
      amount: body.amount,
      amountTo: body.amount_to,
      spreadPpm: getConfig().spreadPpm,
    });
    const available = await readBalance(db, { merchantId: session.merchantId, currency: price.source });
    return {
      source: price.source,
      target: price.target,
      principal: formatAmount(price.principal),
      sent: formatAmount(price.sent),
      withdrawal_fee: formatAmount(price.withdrawalFee),
      network_fee: formatAmount(price.networkFee),
      total_debit: formatAmount(price.totalDebit),
      rate: price.rate === null ? null : formatRate(price.rate),
      // Flagged here, before Confirm, rather than refused only when the payout is sent.
      available: formatAmount(available),
      is_insufficient: price.totalDebit > available,
    };
  },
);
