import "server-only";

import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { chainTips, chainTransactions, deposits, invoices, transactions } from "@/lib/db/schema";

/**
 * A cheap summary of everything the checkout page shows that can change: status, amounts (a
 * re-price changes the amount due and `fixed_at`), address
 * and each payment's confirmations. The event stream compares it once a second and builds the full
 * view only when it differs.
 */
export async function checkoutFingerprint(db: Executor, token: string): Promise<string | null> {
  // Each payment as id:confirmations:status, in one string, so the whole summary is one round trip.
  // A real network's confirmations are the watcher's count; the sandbox's come from its own tip.
  const payments = db
    .select({
      list: sql`string_agg(${deposits.id} || ':' || case when ${chainTransactions.network} is not null
                  then ${deposits.confirmations}
                  else coalesce(${chainTips.height} - ${chainTransactions.blockHeight} + 1, 0) end
                || ':' || ${deposits.status}, ',' order by ${deposits.id})`,
    })
    .from(deposits)
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
    .leftJoin(chainTips, eq(chainTips.currency, chainTransactions.currency))
    .where(eq(deposits.transactionId, transactions.id));
  const [row] = await db
    .select({
      fingerprint: sql<string>`concat_ws('|', ${transactions.status}, ${invoices.paidAmount},
        ${invoices.confirmedAmount}, ${invoices.depositAddressId}, ${invoices.expiresAt}, ${invoices.senderAmount},
        ${invoices.fixedAt}, (${payments}))`,
    })
    .from(invoices)
    .innerJoin(transactions, eq(transactions.id, invoices.transactionId))
    .where(eq(invoices.token, token));
  return row?.fingerprint ?? null;
}
