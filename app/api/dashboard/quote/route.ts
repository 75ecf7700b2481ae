import { withSession } from "@/lib/api/with-session";
import { inTransaction } from "@/lib/db/transaction";
import { readBalance } from "@/lib/ledger/read-balance";
import { judgeWithdrawalLimits, overLimitText, withdrawalLegs } from "@/lib/limits/judge-withdrawal-limits";
import { formatAmount } from "@/lib/money";
import { formatRate } from "@/lib/rates/rate";
import { valueNow } from "@/lib/rates/value-now";
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
      pricing: getConfig().pricing,
    });
    const available = await readBalance(db, { merchantId: session.merchantId, currency: price.source });
    // The same rule createWithdrawal applies when the payout is sent, judged now so the review can say
    // before Confirm that the payout will wait for an approver (its locks end with this transaction).
    const verdict = await inTransaction(db, (tx) =>
      judgeWithdrawalLimits(tx, { merchantId: session.merchantId, legs: withdrawalLegs(price) }),
    );
    const [value] = await valueNow(db, {
      merchantId: session.merchantId,
      amounts: [{ amount: price.principal, currency: price.source }],
    });
    return {
      source: price.source,
      target: price.target,
      principal: formatAmount(price.principal),
      sent: formatAmount(price.sent),
      withdrawal_fee: formatAmount(price.withdrawalFee),
      network_fee: formatAmount(price.networkFee),
      total_debit: formatAmount(price.totalDebit),
      /** What the principal is worth now in the dashboard's display currency; null without a price. */
      value_now: value ?? null,
      rate: price.rate === null ? null : formatRate(price.rate),
      // Flagged here, before Confirm, rather than refused only when the payout is sent.
      available: formatAmount(available),
      is_insufficient: price.totalDebit > available,
      /** Which limit the payout is over, in words; null when it is sent without approval. */
      over_limit: verdict.isWithin ? null : overLimitText(verdict, "payout"),
    };
  },
);
