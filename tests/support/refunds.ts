import { asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { transactionEvents, withdrawals } from "@/lib/db/schema";

/** The refund payouts recorded against an invoice, oldest first, read straight from the table. */
export const refundPayoutsOf = (db: Db, invoiceId: number) =>
  db
    .select({
      id: withdrawals.transactionId,
      sent: withdrawals.sentAmount,
      target: withdrawals.targetCurrency,
    })
    .from(withdrawals)
    .where(eq(withdrawals.refundOf, invoiceId))
    .orderBy(asc(withdrawals.transactionId));

/** The refund steps on an invoice's timeline (`refund_issued`, `refund_claimed`, …), in order. */
export const refundStepsOf = async (db: Db, invoiceId: number) =>
  (
    await db
      .select({ reason: transactionEvents.reason })
      .from(transactionEvents)
      .where(eq(transactionEvents.transactionId, invoiceId))
      .orderBy(asc(transactionEvents.id))
  )
    .map((event) => event.reason ?? "")
    .filter((reason) => reason.startsWith("refund_"));
