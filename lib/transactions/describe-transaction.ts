import { eq, sql } from "drizzle-orm";
import { type Executor, queryRows, queryRowsPrepared } from "@/lib/db/client";
import { depositAddresses, transactions } from "@/lib/db/schema";
import { computeCredit } from "@/lib/deposits/compute-credit";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { formatAmount, formatPercent, parseStoredAmount } from "@/lib/money";
import { formatRate, formatStoredRate, IDENTITY_RATE, storedRate } from "@/lib/rates/rate";
import type { TransactionInfo } from "@/lib/schemas/transactions";
import { loadWithdrawal } from "@/lib/withdrawals/load-withdrawal";
import { findTransaction } from "./find-transaction";
import { wireStatus } from "./wire-status";

type Entry = TransactionInfo["transactions"][number];

/**
 * What the chain and the ledger say about a transaction, in one query: the payments received, as
 * `blockchain` entries with live confirmation counts, and the fees the platform took, per currency.
 */
async function paymentsAndFees(db: Executor, transactionId: number) {
  const rows = await queryRowsPrepared<{
    kind: "payment" | "fee";
    id: string | number | null;
    currency: string;
    address: string | null;
    tag: string | null;
    amount: string;
    txid: string | null;
    risk_score: string | null;
    height: number | null;
    tip: number | null;
    locked_amount: string | null;
    locked_rate_numerator: string | null;
    locked_rate_denominator: string | null;
    rate_numerator: string | null;
    rate_denominator: string | null;
  }>(
    db,
    sql`select 'payment' as kind, c.id, c.currency, c.address, c.tag, d.amount::text as amount, c.txid,
               c.risk_score, c.block_height as height, t.height as tip, d.id as position,
               d.locked_amount::text as locked_amount, d.locked_rate_numerator::text as locked_rate_numerator,
               d.locked_rate_denominator::text as locked_rate_denominator,
               d.rate_numerator::text as rate_numerator, d.rate_denominator::text as rate_denominator
        from deposits d
        join chain_transactions c on c.id = d.chain_transaction_id
        left join chain_tips t on t.currency = c.currency
        where d.transaction_id = ${transactionId}
        union all
        select 'fee', null, e.currency, null, null, sum(e.amount)::text, null, null, null, null, null,
               null, null, null, null, null
        from ledger_entries e
        join journals j on j.id = e.journal_id
        join ledger_accounts a on a.id = e.account_id
        where j.transaction_id = ${transactionId} and a.kind = 'platform:fees'
        group by e.currency
        order by kind desc, position, currency`,
  );
  const payments = rows
    .filter((row) => row.kind === "payment")
    .map(
      (row): Entry => ({
        id: Number(row.id),
        currency: row.currency,
        transaction_type: "blockchain",
        type: "deposit",
        address: row.address!,
        tag: row.tag || null,
        amount: formatAmount(parseStoredAmount(row.amount)),
        txid: row.txid!,
        ...(row.risk_score !== null && { riskscore: row.risk_score }),
        confirmations: String(
          row.height === null || row.tip === null ? 0 : Math.max(0, row.tip - row.height + 1),
        ),
      }),
    );
  // Each payment's rates, fixed when it was seen (lib/deposits/rate-payment.ts): the part a live
  // lock covered at the locked rate, the rest at the rate of that moment.
  const paymentRates = rows
    .filter((row) => row.kind === "payment")
    .map((row) => {
      const lockedRate = storedRate(
        wholeOrNull(row.locked_rate_numerator),
        wholeOrNull(row.locked_rate_denominator),
      );
      const rate = storedRate(wholeOrNull(row.rate_numerator), wholeOrNull(row.rate_denominator));
      const amount = parseStoredAmount(row.amount);
      const lockedAmount = lockedRate && row.locked_amount ? parseStoredAmount(row.locked_amount) : 0n;
      return {
        txid: row.txid!,
        amount,
        lockedAmount,
        lockedRate,
        rate,
        details: {
          txid: row.txid!,
          amount: formatAmount(amount),
          locked_amount: formatAmount(lockedAmount),
          locked_rate: lockedRate ? formatRate(lockedRate) : null,
          rate: rate ? formatRate(rate) : null,
        },
      };
    });
  const fees = new Map(
    rows.filter((row) => row.kind === "fee").map((row) => [row.currency, parseStoredAmount(row.amount)]),
  );
  return { payments, fees, paymentRates };
}

const wholeOrNull = (text: string | null) => (text === null ? null : BigInt(text));

const isSettledOrInFlight = (status: string) => ["confirmed", "not_confirmed"].includes(wireStatus(status));
const spreadPercent = (ppm: number | null) => (ppm === null ? null : formatPercent(ppm));

async function describeInvoice(db: Executor, id: number): Promise<TransactionInfo> {
  const record = (await loadInvoiceById(db, id))!;
  const { invoice } = record;
  const { payments, fees, paymentRates } = await paymentsAndFees(db, id);
  const fee = fees.get(record.currency) ?? 0n;
  const gross = invoice.creditedAmount + fee;
  const entries = [...payments];
  if (invoice.senderCurrency && invoice.senderCurrency !== record.currency && invoice.confirmedAmount > 0n) {
    entries.push({
      id,
      currency: invoice.senderCurrency,
      currency_to: record.currency,
      transaction_type: "exchange",
      type: "exchange",
      amount: formatAmount(invoice.confirmedAmount),
      amount_to: formatAmount(gross),
    });
  }
  const status = wireStatus(record.status);
  const due = invoice.senderAmount;
  return {
    id,
    type: "invoice",
    foreign_id: record.foreignId,
    end_user_reference: record.endUserReference,
    ...(record.address && {
      crypto_address: {
        id: record.address.id,
        currency: record.address.currency,
        address: record.address.address,
        foreign_id: record.foreignId,
        tag: record.address.tag || null,
      },
    }),
    ...(isSettledOrInFlight(record.status) &&
      invoice.senderCurrency && {
        currency_sent: { currency: invoice.senderCurrency, amount: formatAmount(invoice.paidAmount) },
        currency_received: {
          currency: record.currency,
          amount: formatAmount(gross),
          amount_minus_fee: formatAmount(invoice.creditedAmount),
        },
      }),
    transactions: entries,
    fees: [...fees].map(([currency, amount]) => ({
      type: "deposit",
      currency,
      amount: formatAmount(amount),
    })),
    error: status === "declined" || status === "cancelled" ? (invoice.statusReason ?? "") : "",
    status,
    additional_details: {
      invoice_status: record.status,
      status_reason: invoice.statusReason,
      title: invoice.title,
      invoice_type: invoice.type,
      amount: formatAmount(record.amount),
      currency: record.currency,
      sender_amount: due === null ? null : formatAmount(due),
      paid_amount: formatAmount(invoice.paidAmount),
      confirmed_amount: formatAmount(invoice.confirmedAmount),
      remaining_amount:
        due === null ? null : formatAmount(due > invoice.paidAmount ? due - invoice.paidAmount : 0n),
      rate: formatStoredRate(invoice.rateNumerator, invoice.rateDenominator),
      spread_percent: spreadPercent(invoice.spreadPpm),
      expires_at: invoice.expiresAt?.toISOString() ?? null,
      payments: paymentRates.map((p) => p.details),
    },
  };
}

async function describeDeposit(db: Executor, id: number): Promise<TransactionInfo> {
  const [transaction] = await db.select().from(transactions).where(eq(transactions.id, id));
  const details = transaction!.details as {
    deposit_address_id: number;
    rate?: string;
    fee?: string;
    net?: string;
  };
  const [address] = await db
    .select()
    .from(depositAddresses)
    .where(eq(depositAddresses.id, details.deposit_address_id));
  const { payments, paymentRates } = await paymentsAndFees(db, id);
  const payment = payments[0]!;
  const seen = paymentRates[0]!;
  const creditCurrency = address!.convertTo ?? address!.currency;
  const status = wireStatus(transaction!.status);
  const isCredited = transaction!.status === "confirmed";
  // Before confirmation the amounts are known when the payment's rate was fixed as it was seen.
  const rate = seen.rate ?? (creditCurrency === address!.currency ? IDENTITY_RATE : null);
  const credit = isCredited
    ? {
        gross: transaction!.amount!,
        fee: parseStoredAmount(details.fee!),
        net: parseStoredAmount(details.net!),
      }
    : rate
      ? computeCredit({
          parts: [{ amount: seen.amount, rate }],
          payCurrency: address!.currency,
          creditCurrency,
        })
      : undefined;
  const entries = [...payments];
  if (address!.convertTo && isCredited) {
    entries.push({
      id,
      currency: address!.currency,
      currency_to: creditCurrency,
      transaction_type: "exchange",
      type: "exchange",
      amount: payment.amount,
      amount_to: formatAmount(credit!.gross),
    });
  }
  return {
    id,
    type: address!.convertTo ? "deposit_exchange" : "deposit",
    crypto_address: {
      id: address!.id,
      currency: address!.currency,
      ...(address!.convertTo && { convert_to: address!.convertTo }),
      address: address!.address,
      foreign_id: address!.foreignId,
      tag: address!.tag || null,
    },
    currency_sent: { currency: address!.currency, amount: payment.amount },
    ...(credit && {
      currency_received: {
        currency: creditCurrency,
        amount: formatAmount(credit.gross),
        amount_minus_fee: formatAmount(credit.net),
      },
    }),
    transactions: entries,
    fees: isCredited
      ? [
          {
            type: address!.convertTo ? "exchange" : "deposit",
            currency: creditCurrency,
            amount: formatAmount(credit!.fee),
          },
        ]
      : [],
    error: "",
    status,
    ...((details.rate || seen.rate) && {
      additional_details: {
        rate: details.rate ?? (seen.rate ? formatRate(seen.rate) : null),
        payments: [seen.details],
      },
    }),
  };
}

async function describeWithdrawal(db: Executor, id: number): Promise<TransactionInfo> {
  const record = (await loadWithdrawal(db, id))!;
  const { withdrawal: w } = record;
  const status = wireStatus(record.status);
  const isFailed = status === "cancelled";
  const [chain] = w.chainTransactionId
    ? await queryRows<{ height: number | null; tip: number | null }>(
        db,
        sql`select c.block_height as height, t.height as tip from chain_transactions c
            left join chain_tips t on t.currency = c.currency where c.id = ${w.chainTransactionId}`,
      )
    : [];
  const confirmations =
    chain && chain.height !== null && chain.tip !== null ? Math.max(0, chain.tip - chain.height + 1) : 0;
  const entries: Entry[] = [];
  if (w.sourceCurrency !== w.targetCurrency) {
    entries.push({
      id,
      currency: w.sourceCurrency,
      currency_to: w.targetCurrency,
      transaction_type: "exchange",
      type: "exchange",
      amount: formatAmount(w.principal),
      amount_to: formatAmount(w.sentAmount),
    });
  }
  entries.push({
    id: w.chainTransactionId ?? id,
    currency: w.targetCurrency,
    transaction_type: "blockchain",
    type: "withdrawal",
    address: w.address,
    tag: w.tag,
    amount: formatAmount(w.sentAmount),
    txid: w.txid,
    confirmations: String(confirmations),
  });
  return {
    id,
    foreign_id: w.foreignIdRaw,
    type: w.kind,
    end_user_reference: record.endUserReference,
    crypto_address: {
      id,
      currency: w.sourceCurrency,
      ...(w.sourceCurrency !== w.targetCurrency && { convert_to: w.targetCurrency }),
      address: w.address,
      tag: w.tag,
    },
    ...(!isFailed && {
      currency_sent: { currency: w.sourceCurrency, amount: formatAmount(w.principal) },
      currency_received: { currency: w.targetCurrency, amount: formatAmount(w.sentAmount) },
    }),
    transactions: entries,
    fees: isFailed
      ? []
      : [
          {
            type: w.sourceCurrency === w.targetCurrency ? "withdrawal" : "exchange",
            currency: w.sourceCurrency,
            amount: formatAmount(w.withdrawalFee),
          },
          { type: "mining", currency: w.sourceCurrency, amount: formatAmount(w.networkFee) },
        ],
    error: w.error ?? "",
    status,
    additional_details: {
      withdrawal_status: record.status,
      total_debit: formatAmount(w.totalDebit),
      rate: formatStoredRate(w.rateNumerator, w.rateDenominator),
      mid_rate: formatStoredRate(w.midRateNumerator, w.midRateDenominator),
      spread_percent: spreadPercent(w.spreadPpm),
      receiver_type: w.receiverType,
    },
  };
}

/** The object of spec 2.6 for any kind of transaction Kassa records. */
export async function describeTransaction(
  db: Executor,
  id: number,
  /** The transaction's type, when the caller already read it (one query less). */
  knownType?: string,
): Promise<TransactionInfo> {
  let type = knownType;
  if (type === undefined) {
    const [row] = await db
      .select({ type: transactions.type })
      .from(transactions)
      .where(eq(transactions.id, id));
    if (!row) throw new Error(`transaction ${id} does not exist`);
    type = row.type;
  }
  if (type === "invoice") return describeInvoice(db, id);
  if (type === "deposit") return describeDeposit(db, id);
  return describeWithdrawal(db, id);
}

/**
 * transactions/info's lookup: the merchant's transaction by exactly one identifier, described;
 * undefined when the merchant has no such transaction.
 */
export async function lookUpTransaction(
  db: Executor,
  merchantId: number,
  by: Parameters<typeof findTransaction>[2],
): Promise<TransactionInfo | undefined> {
  const found = await findTransaction(db, merchantId, by);
  return found ? describeTransaction(db, found.id, found.type) : undefined;
}
