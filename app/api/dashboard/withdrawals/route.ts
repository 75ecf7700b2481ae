import { withSession } from "@/lib/api/with-session";
import { formatAmount } from "@/lib/money";
import { getConfig } from "@/lib/runtime";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";

export const dynamic = "force-dynamic";

/** The payout form: the same schema and engine as POST /api/v2/withdrawal/crypto. */
export const POST = withSession(
  { request: withdrawalRequest },
  async ({ db, session, body }) => {
    const { id, price } = await createWithdrawal(
      db,
      withdrawalInput(session.merchantId, body, getConfig().spreadPpm),
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
