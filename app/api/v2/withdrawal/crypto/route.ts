import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { formatAmount } from "@/lib/money";
import { getConfig } from "@/lib/runtime";
import { withdrawalEndpoint } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";

export const POST = withMerchantSignature(
  withdrawalEndpoint,
  async ({ db, merchantId, body, apiKey, apiKeyId, clientAddress }) => {
    const config = getConfig();
    const input = {
      ...withdrawalInput(merchantId, body, config.pricing),
      apiKeyId,
      approvalSeconds: config.withdrawalApprovalSeconds,
      audit: { actor: { kind: "api_key" as const, key: apiKey }, address: clientAddress },
    };
    const { id, price, status } = await createWithdrawal(db, input);
    return {
      id,
      foreign_id: body.foreign_id,
      end_user_reference: body.end_user_reference,
      type: input.kind as "withdrawal" | "withdrawal_exchange",
      status,
      amount: formatAmount(price.principal),
      sender_amount: formatAmount(price.principal),
      sender_currency: price.source,
      receiver_currency: price.target,
      receiver_amount: formatAmount(price.sent),
    };
  },
);
