import "server-only";

import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";

/**
 * Who fixed an invoice's pay currency is kept on its transaction row (`details.currency_chosen_by`),
 * because the invoice's columns look the same either way once an address is handed out. Only a
 * customer's own choice may be switched later; a merchant's `sender_currency` never. Invoices whose
 * customer chose before this was recorded count as merchant-fixed: the safe side.
 */
export async function markChosenByCustomer(tx: Tx, invoiceId: number): Promise<void> {
  await tx
    .update(transactions)
    .set({ details: sql`${transactions.details} || '{"currency_chosen_by":"customer"}'::jsonb` })
    .where(eq(transactions.id, invoiceId));
}

/** Read from the transaction row's details, which every invoice load already holds. */
export function isChosenByCustomer(details: unknown): boolean {
  return (details as { currency_chosen_by?: unknown } | null)?.currency_chosen_by === "customer";
}
