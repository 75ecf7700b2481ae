import "server-only";

import { and, eq, isNotNull, notExists, sql } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import type { Db, Tx } from "@/lib/db/client";
import {
  amountSql,
  chainTransactions,
  depositAddresses,
  deposits,
  invoices,
  transactions,
} from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { settleInvoice } from "@/lib/invoices/settle-invoice";
import { postJournal } from "@/lib/ledger/post-journal";
import { formatAmount } from "@/lib/money";
import { formatRate } from "@/lib/rates/rate";
import { quote } from "@/lib/rates/rates";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { type CreditPart, computeCredit, depositEntries } from "./compute-credit";
import { holdBelowMinimum } from "./hold-below-minimum";
import { recordedParts } from "./rate-payment";

/**
 * The parts of a deposit and their rates, as fixed when it was seen: the locked part at the
 * invoice's locked rate, the rest at the rate of that moment. Only when no rate could be had then
 * is the rest converted at the rate of now (never at a stale lock), and that rate is recorded on
 * the deposit, so its value can be recomputed exactly later (settlement judges invoices by it).
 */
async function creditParts(
  tx: Tx,
  input: { deposit: typeof deposits.$inferSelect; creditCurrency: string; spreadPpm: number },
): Promise<CreditPart[]> {
  const { deposit, creditCurrency } = input;
  const recorded = recordedParts(deposit, creditCurrency);
  if (recorded) return recorded;
  const { rate } = await quote(tx, {
    from: deposit.currency,
    to: creditCurrency,
    spreadPpm: input.spreadPpm,
  });
  await tx
    .update(deposits)
    .set({ rateNumerator: rate.numerator, rateDenominator: rate.denominator })
    .where(eq(deposits.id, deposit.id));
  return recordedParts(deposit, creditCurrency, rate)!;
}

/**
 * Credits a confirmed deposit to the merchant, exactly once: the status change `seen → credited`
 * is a conditional update in the same transaction as the ledger entries, so a job that runs twice
 * (or two workers racing) credits once. It converts at the rates recorded when the payment was seen
 * (lib/deposits/rate-payment.ts): an invoice's locked rate for the part its live lock covered, the
 * rate of that moment for the rest and for payments to permanent addresses. A deposit whose chain
 * transaction a reorganisation removed is refused in the same conditional update: it can only be
 * unwound (lib/chain/evm/settle-removed-payment.ts). A deposit below the currency's minimum is held
 * in a platform suspense account instead of credited (lib/deposits/hold-below-minimum.ts).
 */
export async function creditDeposit(
  db: Db,
  input: { depositId: number; spreadPpm: number; clock?: Clock },
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [deposit] = await tx
      .update(deposits)
      .set({ status: "credited", creditedAt: sql`now()` })
      .where(
        and(
          eq(deposits.id, input.depositId),
          eq(deposits.status, "seen"),
          // A payment whose block a reorganisation removed is never credited (only unwound).
          notExists(
            tx
              .select({ id: chainTransactions.id })
              .from(chainTransactions)
              .where(
                and(
                  eq(chainTransactions.id, deposits.chainTransactionId),
                  isNotNull(chainTransactions.removedAt),
                ),
              ),
          ),
        ),
      )
      .returning();
    if (!deposit) return false;
    const [address] = await tx
      .select()
      .from(depositAddresses)
      .where(eq(depositAddresses.id, deposit.depositAddressId));

    if (address!.kind === "invoice") {
      const record = (await loadInvoiceById(tx, deposit.transactionId, true))!;
      const credit = computeCredit({
        parts: await creditParts(tx, {
          deposit,
          creditCurrency: record.currency,
          spreadPpm: input.spreadPpm,
        }),
        payCurrency: deposit.currency,
        creditCurrency: record.currency,
      });
      await postJournal(tx, {
        merchantId: deposit.merchantId,
        transactionId: record.id,
        kind: "invoice_payment",
        memo: `Invoice ${record.id}: ${formatAmount(deposit.amount)} ${deposit.currency}`,
        entries: depositEntries({
          merchantId: deposit.merchantId,
          payCurrency: deposit.currency,
          payAmount: deposit.amount,
          creditCurrency: record.currency,
          credit,
        }),
      });
      // A payment to an address shown before the customer switched coins is in another currency
      // than the confirmed sum; it counts by its worth (lib/invoices/judge-payments.ts).
      const isPayCurrency = deposit.currency === record.invoice.senderCurrency;
      await tx
        .update(invoices)
        .set({
          ...(isPayCurrency && {
            confirmedAmount: sql`${invoices.confirmedAmount} + ${amountSql(deposit.amount)}`,
          }),
          creditedAmount: sql`${invoices.creditedAmount} + ${amountSql(credit.net)}`,
        })
        .where(eq(invoices.transactionId, record.id));
      await settleInvoice(tx, {
        invoiceId: record.id,
        depositId: deposit.id,
        amount: deposit.amount,
        clock: input.clock,
      });
      return true;
    }

    const [transaction] = await tx
      .select({ status: transactions.status })
      .from(transactions)
      .where(eq(transactions.id, deposit.transactionId));
    if (transaction!.status === "below_minimum") {
      await holdBelowMinimum(tx, {
        merchantId: deposit.merchantId,
        transactionId: deposit.transactionId,
        currency: deposit.currency,
        amount: deposit.amount,
      });
      return true;
    }

    const creditCurrency = address!.convertTo ?? deposit.currency;
    const parts = await creditParts(tx, { deposit, creditCurrency, spreadPpm: input.spreadPpm });
    const credit = computeCredit({ parts, payCurrency: deposit.currency, creditCurrency });
    await postJournal(tx, {
      merchantId: deposit.merchantId,
      transactionId: deposit.transactionId,
      kind: "deposit",
      memo: `Deposit to ${address!.address}`,
      entries: depositEntries({
        merchantId: deposit.merchantId,
        payCurrency: deposit.currency,
        payAmount: deposit.amount,
        creditCurrency,
        credit,
      }),
    });
    await tx
      .update(transactions)
      .set({
        amount: credit.gross,
        details: {
          deposit_address_id: address!.id,
          rate: formatRate(parts[parts.length - 1]!.rate),
          fee: formatAmount(credit.fee),
          net: formatAmount(credit.net),
        },
      })
      .where(eq(transactions.id, deposit.transactionId));
    await transitionStatus(tx, {
      transactionId: deposit.transactionId,
      kind: "deposit",
      to: "confirmed",
      reason: "confirmed",
    });
    return true;
  });
}
