import { assertSandbox } from "@/lib/api/runtime-values";
import { withSession } from "@/lib/api/with-session";
import { getCurrency } from "@/lib/currencies/registry";
import { fieldError } from "@/lib/errors";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { formatAmount, roundToPrecision } from "@/lib/money";
import { sandboxCreditRequest } from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

export const POST = withSession(
  { request: sandboxCreditRequest },
  async ({ db, session, body }) => {
    assertSandbox();
    const { precision } = getCurrency(body.currency);
    if (roundToPrecision(body.amount, precision, "down") !== body.amount) {
      throw fieldError({
        amount: `The amount has more decimal places than ${body.currency} allows (${precision}).`,
      });
    }
    const result = await creditSandboxBalance(db, {
      merchantId: session.merchantId,
      currency: body.currency,
      amount: body.amount,
      isSandbox: true,
    });
    return { currency: body.currency, balance: formatAmount(result.balance) };
  },
  201,
);
