import "server-only";

import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { ledgerAccounts } from "@/lib/db/schema";

/** The merchant's balance in one currency, in 10^-8 units: zero where it has no account yet. */
export async function readBalance(
  db: Executor,
  input: { merchantId: number; currency: string },
): Promise<bigint> {
  const [account] = await db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.merchantId, input.merchantId),
        eq(ledgerAccounts.kind, "balance"),
        eq(ledgerAccounts.currency, input.currency),
      ),
    );
  return account?.balance ?? 0n;
}
