import "server-only";

import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import type { InvoiceRecord } from "@/lib/invoices/load-invoice";
import type { OwedKind } from "@/lib/invoices/owed-refund";
import { blendRates, IDENTITY_RATE, type Rate, storedRate } from "@/lib/rates/rate";

/**
 * The rate the merchant was credited at for the coins a refund gives back, blended by amount: a payment's
 * part under the lock at the locked rate, the rest at its seen moment's (compute-credit.ts). `kind`: short
 * gives back all paid, overpaid the rest beyond the lock, late a payment converted wholly at its moment.
 * No stored rate, or nothing to blend: the invoice's locked rate.
 */
export async function creditedRate(db: Executor, record: InvoiceRecord, kind: OwedKind): Promise<Rate> {
  const invoiceRate =
    storedRate(record.invoice.rateNumerator, record.invoice.rateDenominator) ?? IDENTITY_RATE;
  const pay = record.invoice.senderCurrency;
  if (!pay) return invoiceRate;
  const rows = await db
    .select({
      amount: deposits.amount,
      lockedAmount: deposits.lockedAmount,
      lockedRateNumerator: deposits.lockedRateNumerator,
      lockedRateDenominator: deposits.lockedRateDenominator,
      rateNumerator: deposits.rateNumerator,
      rateDenominator: deposits.rateDenominator,
    })
    .from(deposits)
    .where(
      and(
        eq(deposits.transactionId, record.id),
        eq(deposits.status, "credited"),
        eq(deposits.currency, pay),
        eq(deposits.isLate, kind === "late"),
      ),
    );
  const parts = rows.flatMap((row) => {
    const rest = {
      amount: row.amount - row.lockedAmount,
      rate: storedRate(row.rateNumerator, row.rateDenominator) ?? invoiceRate,
    };
    if (kind === "overpaid") return [rest];
    const locked = storedRate(row.lockedRateNumerator, row.lockedRateDenominator) ?? invoiceRate;
    return [{ amount: row.lockedAmount, rate: locked }, rest];
  });
  return blendRates(parts) ?? invoiceRate;
}
