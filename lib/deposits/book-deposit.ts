import "server-only";

import { and, eq, sql } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { amountSql, depositAddresses, deposits, invoices, transactions, utxoCoins } from "@/lib/db/schema";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { settleInvoice } from "@/lib/invoices/settle-invoice";
import { postJournal } from "@/lib/ledger/post-journal";
import { formatAmount } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
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
  input: { deposit: typeof deposits.$inferSelect; creditCurrency: string; pricing: Pricing },
): Promise<CreditPart[]> {
  const { deposit, creditCurrency } = input;
  const recorded = recordedParts(deposit, creditCurrency);
  if (recorded) return recorded;
  const { rate } = await quote(tx, {
    merchantId: deposit.merchantId,
    from: deposit.currency,
    to: creditCurrency,
    spreadPpm: input.pricing.spreadPpm,
  });
  await tx
    .update(deposits)
    .set({ rateNumerator: rate.numerator, rateDenominator: rate.denominator })
    .where(eq(deposits.id, deposit.id));
  return recordedParts(deposit, creditCurrency, rate)!;
}

/**
 * Books a claimed deposit (its status already `credited`, in the caller's transaction, so this runs
 * once): the ledger entries at the rates recorded when it was seen, then its invoice's settlement or
 * its `deposit` transaction's confirmation with the callback. A deposit below the currency's minimum
 * goes to the platform suspense account instead. Called by creditDeposit on confirmation, and by a
 * compliance release (lib/compliance/release-review.ts) for a payment that was held for review.
 */
export async function bookDeposit(
  tx: Tx,
  input: { deposit: typeof deposits.$inferSelect; pricing: Pricing; clock?: Clock },
): Promise<void> {
  const { deposit } = input;
  // On a UTXO chain the payment's coin becomes Kassa's to spend with its credit, never before.
  await tx
    .update(utxoCoins)
    .set({ status: "spendable", updatedAt: sql`now()` })
    .where(
      and(eq(utxoCoins.chainTransactionId, deposit.chainTransactionId), eq(utxoCoins.status, "pending")),
    );
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
        pricing: input.pricing,
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
    return;
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
    return;
  }

  const creditCurrency = address!.convertTo ?? deposit.currency;
  const parts = await creditParts(tx, { deposit, creditCurrency, pricing: input.pricing });
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
}
