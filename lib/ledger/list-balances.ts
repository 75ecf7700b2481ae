import "server-only";

import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { prepared } from "@/lib/db/prepared";
import { currencies, ledgerAccounts } from "@/lib/db/schema";

export type Balance = { currency: string; type: "crypto" | "fiat"; balance: bigint };

/** Every visible currency with the merchant's balance in it, zero where it has none (as the public API lists). */
export async function listBalances(db: Executor, merchantId: number): Promise<Balance[]> {
  const query = prepared(db, "merchant_balances", (db, name) =>
    db
      .select({ currency: currencies.code, kind: currencies.kind, balance: ledgerAccounts.balance })
      .from(currencies)
      .leftJoin(
        ledgerAccounts,
        and(
          eq(ledgerAccounts.currency, currencies.code),
          eq(ledgerAccounts.merchantId, sql.placeholder("merchantId")),
          eq(ledgerAccounts.kind, "balance"),
        ),
      )
      .where(eq(currencies.isVisible, true))
      .orderBy(asc(currencies.id))
      .prepare(name),
  );
  const rows = await query.execute({ merchantId });
  return rows.map((row) => ({ currency: row.currency, type: row.kind, balance: row.balance ?? 0n }));
}
