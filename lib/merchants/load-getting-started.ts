import "server-only";

import { and, eq, exists, ne, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { apiKeys, deposits, invoices, merchants } from "@/lib/db/schema";

/** Which first steps a merchant has taken, read from what exists rather than from a stored checklist. */
export type GettingStarted = {
  hasApiKey: boolean;
  hasPayment: boolean;
  hasCallbackUrl: boolean;
  hasInvoice: boolean;
};

/**
 * The overview's getting-started checklist. Each step counts once it has happened, even if undone
 * since (a revoked key was still created), so the list never ticks backwards. A payment is any
 * chain payment to one of the merchant's addresses that a reorganisation did not remove: in sandbox
 * mode that is the sandbox payment the checklist asks for.
 */
export async function loadGettingStarted(db: Executor, merchantId: number): Promise<GettingStarted> {
  const [row] = await db
    .select({
      hasApiKey: exists(db.select({ one: sql`1` }).from(apiKeys).where(eq(apiKeys.merchantId, merchantId))),
      hasPayment: exists(
        db
          .select({ one: sql`1` })
          .from(deposits)
          .where(and(eq(deposits.merchantId, merchantId), ne(deposits.status, "unwound"))),
      ),
      hasCallbackUrl: sql<boolean>`coalesce(${merchants.callbackUrl}, '') <> ''`,
      hasInvoice: exists(
        db.select({ one: sql`1` }).from(invoices).where(eq(invoices.merchantId, merchantId)),
      ),
    })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  return {
    hasApiKey: Boolean(row?.hasApiKey),
    hasPayment: Boolean(row?.hasPayment),
    hasCallbackUrl: Boolean(row?.hasCallbackUrl),
    hasInvoice: Boolean(row?.hasInvoice),
  };
}
