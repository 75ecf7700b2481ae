import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { amountSql, depositAddresses, deposits, invoices, transactions } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { settleInvoice } from "@/lib/invoices/settle-invoice";
import { postJournal } from "@/lib/ledger/post-journal";
import { formatAmount, UNIT } from "@/lib/money";
import { quote } from "@/lib/rates/rates";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { computeCredit, depositEntries } from "./compute-credit";

/**
 * Credits a confirmed deposit to the merchant, exactly once: the status change `seen → credited`
 * is a conditional update in the same transaction as the ledger entries, so a job that runs twice
 * (or two workers racing) credits once. Invoice payments convert at the invoice's locked rate; a
 * permanent address converts (to its `convert_to`, if any) at the rate of the moment.
 */
export async function creditDeposit(
  db: Db,
  input: { depositId: number; spreadPpm: number },
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [deposit] = await tx
      .update(deposits)
      .set({ status: "credited", creditedAt: sql`now()` })
      .where(and(eq(deposits.id, input.depositId), eq(deposits.status, "seen")))
      .returning();
    if (!deposit) return false;
    const [address] = await tx
      .select()
      .from(depositAddresses)
      .where(eq(depositAddresses.id, deposit.depositAddressId));

    if (address!.kind === "invoice") {
      const record = (await loadInvoiceById(tx, deposit.transactionId, true))!;
      const credit = computeCredit({
        payAmount: deposit.amount,
        payCurrency: deposit.currency,
        creditCurrency: record.currency,
        rate: record.invoice.rate!,
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
      await tx
        .update(invoices)
        .set({
          confirmedAmount: sql`${invoices.confirmedAmount} + ${amountSql(deposit.amount)}`,
          creditedAmount: sql`${invoices.creditedAmount} + ${amountSql(credit.net)}`,
        })
        .where(eq(invoices.transactionId, record.id));
      await settleInvoice(tx, { invoiceId: record.id, depositId: deposit.id, amount: deposit.amount });
      return true;
    }

    const creditCurrency = address!.convertTo ?? deposit.currency;
    const rate =
      creditCurrency === deposit.currency
        ? UNIT
        : (await quote(tx, { from: deposit.currency, to: creditCurrency, spreadPpm: input.spreadPpm })).rate;
    const credit = computeCredit({
      payAmount: deposit.amount,
      payCurrency: deposit.currency,
      creditCurrency,
      rate,
    });
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
          rate: formatAmount(rate),
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
