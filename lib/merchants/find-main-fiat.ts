import "server-only";

import { and, count, desc, eq, inArray, max } from "drizzle-orm";
import { CURRENCIES } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";

/** The fiat a merchant who has invoiced nothing yet sees: the rates table prices everything in it. */
export const DEFAULT_MAIN_FIAT = "USD";

const FIAT_CODES = CURRENCIES.filter((c) => c.kind === "fiat").map((c) => c.code);

/**
 * The fiat a merchant thinks in, for pictures of value (the overview chart): the fiat they invoice
 * in most often, the latest of them on a tie, or USD before their first fiat invoice. There is no
 * setting for it: what a merchant invoices in says it already.
 */
export async function findMainFiat(db: Executor, merchantId: number): Promise<string> {
  const [row] = await db
    .select({ currency: transactions.currency })
    .from(transactions)
    .where(
      and(
        eq(transactions.merchantId, merchantId),
        eq(transactions.type, "invoice"),
        inArray(transactions.currency, FIAT_CODES),
      ),
    )
    .groupBy(transactions.currency)
    .orderBy(desc(count()), desc(max(transactions.id)))
    .limit(1);
  return row?.currency ?? DEFAULT_MAIN_FIAT;
}
