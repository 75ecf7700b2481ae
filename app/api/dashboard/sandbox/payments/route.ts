import { withSession } from "@/lib/api/with-session";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { formatAmount } from "@/lib/money";
import { sandboxPayRequest } from "@/lib/schemas/dashboard";

export const POST = withSession(
  { permission: "sandbox.use", isSandboxOnly: true, request: sandboxPayRequest, successStatus: 201 },
  async ({ db, body }) => {
    const payment = await sendSandboxPayment(db, body);
    return {
      txid: payment.txid,
      amount: formatAmount(payment.amount),
      currency: payment.currency,
      is_recognized: payment.isRecognized,
    };
  },
);
