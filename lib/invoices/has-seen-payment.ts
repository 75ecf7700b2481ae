import "server-only";

import { and, eq, ne } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";

/**
 * Whether any payment to any of the invoice's addresses (the current one or one shown before the
 * customer switched coins) was seen and not taken back by a reorganisation.
 */
export async function hasSeenPayment(db: Executor, invoiceId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(deposits.transactionId, invoiceId), ne(deposits.status, "unwound")))
    .limit(1);
  return row !== undefined;
}
