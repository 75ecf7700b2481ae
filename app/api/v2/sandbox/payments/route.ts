import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { formatAmount } from "@/lib/money";
import { sandboxPaymentEndpoint } from "@/lib/schemas/sandbox";

export const POST = withMerchantSignature(sandboxPaymentEndpoint, async ({ db, body }) => {
  const payment = await sendSandboxPayment(db, body);
  return {
    txid: payment.txid,
    currency: payment.currency,
    address: payment.address,
    tag: payment.tag,
    amount: formatAmount(payment.amount),
    confirmations: payment.confirmations,
    is_recognized: payment.isRecognized,
  };
});
