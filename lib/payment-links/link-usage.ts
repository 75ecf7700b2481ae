import "server-only";

import { desc, eq, type SQL, sql } from "drizzle-orm";
import { type Clock, sqlNow, systemClock } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { invoices, merchants, paymentLinks, transactions } from "@/lib/db/schema";
import { parseStoredAmount } from "@/lib/money";
import type { PaymentLinkStatus } from "@/lib/schemas/payment-links";

export type PaymentLinkRow = typeof paymentLinks.$inferSelect;

/** A link with what its invoices add up to at one moment. */
export type PaymentLinkRecord = {
  link: PaymentLinkRow;
  merchantName: string;
  supportEmail: string | null;
  /** Invoices started from it and confirmed. */
  paidInvoices: number;
  /** Invoices started from it that hold a use now: payable (within their timer) or being confirmed. */
  openInvoices: number;
  /** What the merchant's balance was credited for its invoices, net of fees, in the link's currency. */
  received: bigint;
  status: PaymentLinkStatus;
};

/**
 * Whether the joined invoice holds one of its link's uses at `clock`'s now: confirmed, being
 * confirmed (`processing`), or still payable within its timer. Expired, failed and cancelled
 * invoices free their use (a merchant selling N tickets must not lose them to abandoned visits); a
 * `pending` invoice past its deadline frees it even before its expiry job has run.
 */
export function holdsUseSql(clock: Clock = systemClock): SQL {
  return sql`(${transactions.status} in ('confirmed', 'processing')
    or (${transactions.status} in ('created', 'pending') and ${invoices.expiresAt} > ${sqlNow(clock)}))`;
}

const isOpenSql = (clock: Clock) =>
  sql`(${transactions.status} = 'processing'
    or (${transactions.status} in ('created', 'pending') and ${invoices.expiresAt} > ${sqlNow(clock)}))`;

/** A link's state for a visitor: deactivated first, then past its expiry, then every use taken. */
export function linkStatus(
  link: Pick<PaymentLinkRow, "isActive" | "expiresAt" | "maxUses">,
  uses: number,
  now: Date,
): PaymentLinkStatus {
  if (!link.isActive) return "inactive";
  if (link.expiresAt !== null && link.expiresAt <= now) return "expired";
  if (link.maxUses !== null && uses >= link.maxUses) return "used_up";
  return "active";
}

/**
 * Links matching `where`, newest first, each with its usage, counted from its invoices in the same
 * statement (one grouped join), so the figures are never stored and cannot drift from the invoices.
 */
export async function selectLinksWithUsage(
  db: Executor,
  input: { where: SQL | undefined; limit?: number; clock?: Clock },
): Promise<PaymentLinkRecord[]> {
  const clock = input.clock ?? systemClock;
  const query = db
    .select({
      link: paymentLinks,
      merchantName: merchants.name,
      supportEmail: merchants.supportEmail,
      paid: sql<string>`count(${invoices.transactionId}) filter (where ${transactions.status} = 'confirmed')`,
      open: sql<string>`count(${invoices.transactionId}) filter (where ${isOpenSql(clock)})`,
      received: sql<string>`coalesce(sum(${invoices.creditedAmount}), 0)`,
    })
    .from(paymentLinks)
    .innerJoin(merchants, eq(merchants.id, paymentLinks.merchantId))
    .leftJoin(invoices, eq(invoices.paymentLinkId, paymentLinks.id))
    .leftJoin(transactions, eq(transactions.id, invoices.transactionId))
    .where(input.where)
    .groupBy(paymentLinks.id, merchants.id)
    .orderBy(desc(paymentLinks.id));
  const rows = input.limit === undefined ? await query : await query.limit(input.limit);
  const now = clock.now();
  return rows.map((row) => {
    const paidInvoices = Number(row.paid);
    const openInvoices = Number(row.open);
    return {
      link: row.link,
      merchantName: row.merchantName,
      supportEmail: row.supportEmail,
      paidInvoices,
      openInvoices,
      received: parseStoredAmount(String(row.received)),
      status: linkStatus(row.link, paidInvoices + openInvoices, now),
    };
  });
}
