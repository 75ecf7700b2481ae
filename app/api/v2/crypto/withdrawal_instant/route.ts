import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { formatAmount } from "@/lib/money";
import { getConfig } from "@/lib/runtime";
import { instantWithdrawalEndpoint } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { instantWithdrawalInput } from "@/lib/withdrawals/from-request";

export const POST = withMerchantSignature(
  instantWithdrawalEndpoint,
  async ({ db, merchantId, body, apiKey, apiKeyId, clientAddress }) => {
    const config = getConfig();
    const { id, price, status } = await createWithdrawal(db, {
      ...instantWithdrawalInput(merchantId, body, config.pricing),
      apiKeyId,
      approvalSeconds: config.withdrawalApprovalSeconds,
      audit: { actor: { kind: "api_key" as const, key: apiKey }, address: clientAddress },
    });
    return {
      id,
      foreign_id: body.foreign_id,
      end_user_reference: body.end_user_reference,
      type: "withdrawal_instant" as const,
      status,
      sender_currency: price.source,
      sender_amount: formatAmount(price.principal),
    };
  },
);
