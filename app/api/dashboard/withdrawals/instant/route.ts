import { withSession } from "@/lib/api/with-session";
import { formatAmount } from "@/lib/money";
import { getConfig } from "@/lib/runtime";
import { instantWithdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { instantWithdrawalInput } from "@/lib/withdrawals/from-request";

export const dynamic = "force-dynamic";

export const POST = withSession(
  { request: instantWithdrawalRequest },
  async ({ db, session, body }) => {
    const { id, price } = await createWithdrawal(
      db,
      instantWithdrawalInput(session.merchantId, body, getConfig().spreadPpm),
    );
    return {
      id,
      total_debit: formatAmount(price.totalDebit),
      sent: formatAmount(price.sent),
      target: price.target,
    };
  },
  201,
);
