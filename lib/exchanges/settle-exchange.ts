import "server-only";

import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { exchanges, transactions } from "@/lib/db/schema";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { postJournal } from "@/lib/ledger/post-journal";
import { transitionStatus } from "@/lib/transactions/transition-status";

/**
 * The exchange job: credits the receiver balance from the platform's exchange position, books the
 * fee (the spread kept) to platform:fees under its fee type, and confirms the exchange, which queues
 * its `exchange` callback, all in the caller's transaction. A second run finds it confirmed and
 * does nothing, so a retried job never credits twice.
 */
export async function settleExchange(tx: Tx, transactionId: number): Promise<void> {
  const [row] = await tx
    .select({ status: transactions.status, merchantId: transactions.merchantId, exchange: exchanges })
    .from(transactions)
    .innerJoin(exchanges, eq(exchanges.transactionId, transactions.id))
    .where(eq(transactions.id, transactionId))
    .for("update", { of: transactions });
  if (row?.status !== "processing") return;
  const { exchange: e, merchantId } = row;
  await postJournal(tx, {
    merchantId,
    transactionId,
    kind: "exchange_credit",
    memo: `Exchange ${transactionId}: ${e.senderCurrency} to ${e.receiverCurrency}`,
    entries: [
      { account: platformAccount("platform:exchange", e.receiverCurrency), amount: -e.receiverAmount },
      { account: merchantBalance(merchantId, e.receiverCurrency), amount: e.receiverAmount },
    ],
  });
  if (e.feeAmount > 0n) {
    await postJournal(tx, {
      merchantId,
      transactionId,
      kind: e.feeType,
      memo: `Exchange ${transactionId}: spread kept`,
      entries: [
        { account: platformAccount("platform:exchange", e.receiverCurrency), amount: -e.feeAmount },
        { account: platformAccount("platform:fees", e.receiverCurrency), amount: e.feeAmount },
      ],
    });
  }
  await tx
    .update(exchanges)
    .set({ confirmedAt: sql`now()` })
    .where(eq(exchanges.transactionId, transactionId));
  await transitionStatus(tx, { transactionId, kind: "exchange", to: "confirmed", reason: "settled" });
}
