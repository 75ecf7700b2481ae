import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import type { TransactionInfo } from "@/lib/schemas/transactions";
import { describeDeposit } from "./describe-deposit";
import { describeExchange } from "./describe-exchange";
import { describeInvoice } from "./describe-invoice";
import { describeWithdrawal } from "./describe-withdrawal";
import { findTransaction } from "./find-transaction";

/** The object of spec 2.6 for any kind of transaction Kassa records. */
export async function describeTransaction(
  db: Executor,
  id: number,
  /** The transaction's type, when the caller already read it (one query less). */
  knownType?: string,
): Promise<TransactionInfo> {
  let type = knownType;
  if (type === undefined) {
    const [row] = await db
      .select({ type: transactions.type })
      .from(transactions)
      .where(eq(transactions.id, id));
    if (!row) throw new Error(`transaction ${id} does not exist`);
    type = row.type;
  }
  if (type === "invoice") return describeInvoice(db, id);
  if (type === "deposit") return describeDeposit(db, id);
  if (type === "exchange") return describeExchange(db, id);
  return describeWithdrawal(db, id);
}

/**
 * transactions/info's lookup: the merchant's transaction by exactly one identifier, described;
 * undefined when the merchant has no such transaction.
 */
export async function lookUpTransaction(
  db: Executor,
  merchantId: number,
  by: Parameters<typeof findTransaction>[2],
): Promise<TransactionInfo | undefined> {
  const found = await findTransaction(db, merchantId, by);
  return found ? describeTransaction(db, found.id, found.type) : undefined;
}
