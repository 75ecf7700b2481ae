import { withSession } from "@/lib/api/with-session";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { formatAmount } from "@/lib/money";
import { sandboxCreditRequest } from "@/lib/schemas/dashboard";

export const POST = withSession(
  { permission: "sandbox.use", isSandboxOnly: true, request: sandboxCreditRequest, successStatus: 201 },
  async ({ db, session, body }) => {
    const result = await creditSandboxBalance(db, {
      merchantId: session.merchantId,
      currency: body.currency,
      amount: body.amount,
      isSandbox: true,
    });
    return { currency: body.currency, balance: formatAmount(result.balance) };
  },
);
