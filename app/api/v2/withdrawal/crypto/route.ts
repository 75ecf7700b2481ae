import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { formatAmount } from "@/lib/money";
import { getConfig } from "@/lib/runtime";
import { withdrawalEndpoint } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";

export const POST = withMerchantSignature(withdrawalEndpoint, async ({ db, merchantId, body }) => {
  const input = withdrawalInput(merchantId, body, getConfig().spreadPpm);
  const { id, price } = await createWithdrawal(db, input);
  return {
    id,
    foreign_id: body.foreign_id,
    end_user_reference: body.end_user_reference,
    type: input.kind as "withdrawal" | "withdrawal_exchange",
    status: "processing" as const,
    amount: formatAmount(price.principal),
    sender_amount: formatAmount(price.totalDebit),
    sender_currency: price.source,
    receiver_currency: price.target,
    receiver_amount: formatAmount(price.sent),
  };
});
