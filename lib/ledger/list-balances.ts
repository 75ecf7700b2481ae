import "server-only";

import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { currencies, ledgerAccounts } from "@/lib/db/schema";

export type Balance = { currency: string; type: "crypto" | "fiat"; balance: bigint };

/** Every visible currency with the merchant's balance in it, zero where it has none (as the public API lists). */
export async function listBalances(db: Executor, merchantId: number): Promise<Balance[]> {
  const rows = await db
    .select({ currency: currencies.code, kind: currencies.kind, balance: ledgerAccounts.balance })
    .from(currencies)
    .leftJoin(
      ledgerAccounts,
      and(
        eq(ledgerAccounts.currency, currencies.code),
        eq(ledgerAccounts.merchantId, merchantId),
        eq(ledgerAccounts.kind, "balance"),
      ),
    )
    .where(eq(currencies.isVisible, true))
    .orderBy(asc(currencies.id));
  return rows.map((row) => ({ currency: row.currency, type: row.kind, balance: row.balance ?? 0n }));
}
