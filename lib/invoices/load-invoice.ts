import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Executor } from "@/lib/db/client";
import { prepared } from "@/lib/db/prepared";
import { depositAddresses, invoices, merchants, transactions } from "@/lib/db/schema";
import type { InvoiceStatus } from "@/lib/transactions/statuses";
import { isChosenByCustomer } from "./currency-choice";

export type InvoiceRecord = {
  id: number;
  merchantId: number;
  merchantName: string;
  /** The merchant's underpayment tolerance in force, in basis points (lib/invoices/judge-payments.ts). */
  underpaymentToleranceBp: number;
  /** Where the merchant's customers write (lib/merchants/read-support-contact.ts); null when none is set. */
  supportEmail: string | null;
  status: InvoiceStatus;
  foreignId: string;
  endUserReference: string;
  currency: string;
  amount: bigint;
  createdAt: Date;
  invoice: typeof invoices.$inferSelect;
  address: { id: number; address: string; tag: string; currency: string } | null;
  /** The customer chose the pay currency on the checkout (lib/invoices/currency-choice.ts): only then may they switch it. */
  isCurrencyChosenByCustomer: boolean;
};

const address = alias(depositAddresses, "invoice_address");

function selectInvoices(db: Executor) {
  return db
    .select({
      t: transactions,
      i: invoices,
      a: address,
      merchantName: merchants.name,
      toleranceBp: merchants.underpaymentToleranceBp,
      supportEmail: merchants.supportEmail,
    })
    .from(transactions)
    .innerJoin(invoices, eq(invoices.transactionId, transactions.id))
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .leftJoin(address, eq(address.id, invoices.depositAddressId));
}

/** Each way an invoice is looked up, with its values as placeholders (lib/db/prepared.ts). */
const lookups = {
  id: () => and(eq(transactions.id, sql.placeholder("id")), eq(transactions.type, "invoice")),
  token: () => eq(invoices.token, sql.placeholder("token")),
  foreignId: () =>
    and(
      eq(transactions.merchantId, sql.placeholder("merchantId")),
      eq(transactions.foreignId, sql.placeholder("foreignId")),
      eq(transactions.type, "invoice"),
    ),
};

async function loadBy(
  db: Executor,
  by: keyof typeof lookups,
  values: Record<string, unknown>,
  lock: boolean,
): Promise<InvoiceRecord | undefined> {
  const query = prepared(db, `invoice_by_${by}${lock ? "_locked" : ""}`, (db, name) => {
    const select = selectInvoices(db).where(lookups[by]()).limit(1);
    return lock ? select.for("update", { of: [transactions, invoices] }).prepare(name) : select.prepare(name);
  });
  const [row] = await query.execute(values);
  if (!row) return undefined;
  return {
    id: row.t.id,
    merchantId: row.t.merchantId,
    merchantName: row.merchantName,
    underpaymentToleranceBp: row.toleranceBp,
    supportEmail: row.supportEmail,
    status: row.t.status as InvoiceStatus,
    foreignId: row.t.foreignId ?? "",
    endUserReference: row.t.endUserReference ?? "",
    currency: row.t.currency!,
    amount: row.t.amount!,
    createdAt: row.t.createdAt,
    invoice: row.i,
    address: row.a
      ? { id: row.a.id, address: row.a.address, tag: row.a.tag, currency: row.a.currency }
      : null,
    isCurrencyChosenByCustomer: isChosenByCustomer(row.t.details),
  };
}

/** Scoped by merchant: another merchant's invoice is simply not found. */
export function loadInvoiceByForeignId(db: Executor, merchantId: number, foreignId: string, lock = false) {
  return loadBy(db, "foreignId", { merchantId, foreignId }, lock);
}

export function loadInvoiceById(db: Executor, id: number, lock = false) {
  return loadBy(db, "id", { id }, lock);
}

/** The checkout's lookup: by the unguessable token only. */
export function loadInvoiceByToken(db: Executor, token: string, lock = false) {
  return loadBy(db, "token", { token }, lock);
}
