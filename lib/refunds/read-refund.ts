import "server-only";

import { and, desc, eq, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Clock, systemClock } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { invoices, merchants, refundClaims, transactions, withdrawals } from "@/lib/db/schema";
import { hashRefundToken } from "./refund-token";

export type RefundStatus = "offered" | "claimed" | "cancelled" | "expired";

/** A refund as the merchant, the API and the customer's page read it. */
export type RefundView = {
  id: number;
  merchantId: number;
  merchantName: string;
  invoiceId: number;
  invoiceForeignId: string;
  invoiceTitle: string;
  /** `offered` past its expiry reads `expired`, marked or not. */
  status: RefundStatus;
  /** The coin paid and what this refund settles in it. */
  payCurrency: string;
  owedAmount: bigint;
  invoiceCurrency: string;
  paymentValue: bigint;
  terms: {
    amountKind: "full" | "excess" | "custom";
    rateBasis: "payment" | "now";
    feePaidBy: "merchant" | "customer";
  };
  currencies: string[];
  /** Where the customer asked for it, once claimed. */
  claim: { currency: string; address: string; tag: string | null } | null;
  /** The payout sending it, once claimed: its own status (pending approval, processing, sending, confirmed…) and txid. */
  payout: { id: number; status: string; amount: bigint; currency: string; txid: string | null } | null;
  expiresAt: Date;
  createdAt: Date;
  claimedAt: Date | null;
  endedAt: Date | null;
  createdBy: string;
};

const invoiceTx = alias(transactions, "refund_invoice");
const payoutTx = alias(transactions, "refund_payout");

/**
 * One refund: by its id or its link token, or the newest of an invoice (by the invoice's id or
 * foreign_id); scoped by merchant except by token, which names one refund by itself. Undefined when
 * there is none.
 */
export async function readRefund(
  db: Executor,
  by:
    | { merchantId: number; id: number }
    | { merchantId: number; invoiceId: number }
    | { merchantId: number; foreignId: string }
    | { token: string },
  clock: Clock = systemClock,
): Promise<RefundView | undefined> {
  let where: SQL;
  if ("token" in by) where = eq(refundClaims.tokenHash, hashRefundToken(by.token));
  else if ("id" in by) where = and(eq(refundClaims.merchantId, by.merchantId), eq(refundClaims.id, by.id))!;
  else if ("invoiceId" in by)
    where = and(eq(refundClaims.merchantId, by.merchantId), eq(refundClaims.invoiceId, by.invoiceId))!;
  else
    where = and(
      eq(refundClaims.merchantId, by.merchantId),
      eq(invoiceTx.foreignId, by.foreignId),
      eq(invoiceTx.type, "invoice"),
    )!;
  const [row] = await refundRows(db, where).limit(1);
  return row ? toView(row, clock) : undefined;
}

/** Every refund of an invoice, newest first. */
export async function listInvoiceRefundClaims(
  db: Executor,
  input: { merchantId: number; invoiceId: number },
  clock: Clock = systemClock,
): Promise<RefundView[]> {
  const rows = await refundRows(
    db,
    and(eq(refundClaims.merchantId, input.merchantId), eq(refundClaims.invoiceId, input.invoiceId))!,
  );
  return rows.map((row) => toView(row, clock));
}

function refundRows(db: Executor, where: SQL) {
  return db
    .select({
      c: refundClaims,
      merchantName: merchants.name,
      invoiceForeignId: invoiceTx.foreignId,
      invoiceCurrency: invoiceTx.currency,
      invoiceTitle: invoices.title,
      payoutStatus: payoutTx.status,
      payoutAmount: withdrawals.sentAmount,
      payoutCurrency: withdrawals.targetCurrency,
      txid: withdrawals.txid,
    })
    .from(refundClaims)
    .innerJoin(merchants, eq(merchants.id, refundClaims.merchantId))
    .innerJoin(invoiceTx, eq(invoiceTx.id, refundClaims.invoiceId))
    .innerJoin(invoices, eq(invoices.transactionId, refundClaims.invoiceId))
    .leftJoin(payoutTx, eq(payoutTx.id, refundClaims.withdrawalId))
    .leftJoin(withdrawals, eq(withdrawals.transactionId, refundClaims.withdrawalId))
    .where(where)
    .orderBy(desc(refundClaims.id));
}

type Row = Awaited<ReturnType<typeof refundRows>>[number];

function toView(row: Row, clock: Clock): RefundView {
  const { c } = row;
  const isLapsed = c.status === "offered" && c.expiresAt.getTime() <= clock.now().getTime();
  return {
    id: c.id,
    merchantId: c.merchantId,
    merchantName: row.merchantName,
    invoiceId: c.invoiceId,
    invoiceForeignId: row.invoiceForeignId ?? "",
    invoiceTitle: row.invoiceTitle,
    status: isLapsed ? "expired" : c.status,
    payCurrency: c.payCurrency,
    owedAmount: c.owedAmount,
    invoiceCurrency: row.invoiceCurrency!,
    paymentValue: c.paymentValue,
    terms: { amountKind: c.amountKind, rateBasis: c.rateBasis, feePaidBy: c.feePaidBy },
    currencies: c.currencies,
    claim:
      c.claimedCurrency && c.address ? { currency: c.claimedCurrency, address: c.address, tag: c.tag } : null,
    payout:
      c.withdrawalId && row.payoutStatus && row.payoutAmount !== null && row.payoutCurrency
        ? {
            id: c.withdrawalId,
            status: row.payoutStatus,
            amount: row.payoutAmount,
            currency: row.payoutCurrency,
            txid: row.txid,
          }
        : null,
    expiresAt: c.expiresAt,
    createdAt: c.createdAt,
    claimedAt: c.claimedAt,
    endedAt: c.endedAt,
    createdBy: c.createdBy,
  };
}
