import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { ledgerAccounts } from "@/lib/db/schema";

/**
 * Who holds value. A merchant has one `balance` account per currency; the platform's accounts
 * hold the other side of every movement, so the whole ledger sums to zero per currency:
 * - platform:chain            value that came from or went to a blockchain (the outside world)
 * - platform:fees             deposit, withdrawal and exchange fees Kassa earned
 * - platform:exchange         Kassa's position from conversions between currencies
 * - platform:clearing         withdrawals accepted (debited from the merchant) and not yet sent
 * - platform:sandbox_faucet   sandbox-only credits (never used in production mode)
 */
export type PlatformAccountKind =
  | "platform:chain"
  | "platform:fees"
  | "platform:exchange"
  | "platform:clearing"
  | "platform:sandbox_faucet";

export type AccountRef =
  | { merchantId: number; kind: "balance"; currency: string }
  | { merchantId: null; kind: PlatformAccountKind; currency: string };

export const merchantBalance = (merchantId: number, currency: string): AccountRef => ({
  merchantId,
  kind: "balance",
  currency,
});

export const platformAccount = (kind: PlatformAccountKind, currency: string): AccountRef => ({
  merchantId: null,
  kind,
  currency,
});

export function accountKey(ref: AccountRef): string {
  return `${ref.merchantId ?? "platform"}/${ref.kind}/${ref.currency}`;
}

/** Returns the account's id, creating the account on first use. */
export async function ensureAccount(db: Executor, ref: AccountRef): Promise<number> {
  const where =
    ref.merchantId === null
      ? and(
          isNull(ledgerAccounts.merchantId),
          eq(ledgerAccounts.kind, ref.kind),
          eq(ledgerAccounts.currency, ref.currency),
        )
      : and(
          eq(ledgerAccounts.merchantId, ref.merchantId),
          eq(ledgerAccounts.kind, ref.kind),
          eq(ledgerAccounts.currency, ref.currency),
        );
  const [found] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(where).limit(1);
  if (found) return found.id;
  const conflictTarget =
    ref.merchantId === null
      ? sql`(kind, currency) where merchant_id is null`
      : sql`(merchant_id, kind, currency) where merchant_id is not null`;
  await db.execute(
    sql`insert into ledger_accounts (merchant_id, kind, currency) values (${ref.merchantId}, ${ref.kind}, ${ref.currency}) on conflict ${conflictTarget} do nothing`,
  );
  const [created] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(where).limit(1);
  if (!created) throw new Error(`could not create ledger account ${accountKey(ref)}`);
  return created.id;
}

/**
 * The ids of several accounts in one query, creating any that do not exist yet (rarely: each
 * account is created once, on its first use).
 */
export async function accountIds(db: Executor, refs: AccountRef[]): Promise<Map<string, number>> {
  const wanted = refs.map((ref) =>
    and(
      ref.merchantId === null
        ? isNull(ledgerAccounts.merchantId)
        : eq(ledgerAccounts.merchantId, ref.merchantId),
      eq(ledgerAccounts.kind, ref.kind),
      eq(ledgerAccounts.currency, ref.currency),
    ),
  );
  const rows = await db
    .select({
      id: ledgerAccounts.id,
      merchantId: ledgerAccounts.merchantId,
      kind: ledgerAccounts.kind,
      currency: ledgerAccounts.currency,
    })
    .from(ledgerAccounts)
    .where(or(...wanted));
  const ids = new Map(
    rows.map((row) => [
      accountKey({ merchantId: row.merchantId, kind: row.kind, currency: row.currency } as AccountRef),
      row.id,
    ]),
  );
  for (const ref of refs) {
    if (!ids.has(accountKey(ref))) ids.set(accountKey(ref), await ensureAccount(db, ref));
  }
  return ids;
}
