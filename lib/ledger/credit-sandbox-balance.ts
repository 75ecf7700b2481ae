import "server-only";

import { eq } from "drizzle-orm";
import { currentOffering, type Offering, realNetworkOf } from "@/lib/currencies/offering";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, KassaError, notFound } from "@/lib/errors";
import { merchantBalance, platformAccount } from "./accounts";
import { listBalances } from "./list-balances";
import { BalanceCapError, postJournal } from "./post-journal";

/**
 * Sandbox only: adds funds to a merchant balance from the sandbox faucet, as a balanced journal
 * like any other movement, so the ledger still sums to zero. Only currencies of simulated networks:
 * a credit of one whose network is real here would be paid out from the real hot wallet.
 */
export async function creditSandboxBalance(
  db: Db,
  input: {
    merchantId: number;
    currency: string;
    amount: bigint;
    isSandbox: boolean;
    memo?: string;
    offering?: Offering;
  },
): Promise<{ journalId: number; balance: bigint }> {
  if (!input.isSandbox) throw new KassaError("not_found", "Sandbox credits exist only in sandbox mode.");
  const network = realNetworkOf(input.currency, input.offering ?? currentOffering());
  if (network)
    throw fieldError({
      currency: `${input.currency} moves on the real ${network} network here: sandbox credits exist only for simulated currencies.`,
    });
  if (input.amount <= 0n)
    throw new KassaError("validation_failed", "amount must be positive", {
      amount: "The amount must be greater than zero.",
    });
  return inTransaction(db, async (tx) => {
    const [merchant] = await tx
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.id, input.merchantId));
    if (!merchant) throw notFound("No such merchant.");
    const { journalId } = await postJournal(tx, {
      merchantId: input.merchantId,
      kind: "sandbox_credit",
      memo: input.memo ?? "Sandbox credit",
      entries: [
        { account: merchantBalance(input.merchantId, input.currency), amount: input.amount },
        { account: platformAccount("platform:sandbox_faucet", input.currency), amount: -input.amount },
      ],
    }).catch((error) => {
      if (!(error instanceof BalanceCapError)) throw error;
      throw new KassaError("validation_failed", error.message, {
        amount: `This credit would take the ${input.currency} balance past the largest amount Kassa keeps.`,
      });
    });
    const balance = (await listBalances(tx, input.merchantId)).find((b) => b.currency === input.currency);
    return { journalId, balance: balance?.balance ?? 0n };
  });
}
