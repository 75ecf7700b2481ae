import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRowsPrepared } from "@/lib/db/client";
import { formatAmount, parseStoredAmount } from "@/lib/money";
import { formatRate, storedRate } from "@/lib/rates/rate";
import { confirmationsOf, type TransactionEntry } from "./info-fields";

const wholeOrNull = (text: string | null) => (text === null ? null : BigInt(text));

/**
 * What the chain and the ledger say about a transaction, in one query: the payments received, as
 * `blockchain` entries with live confirmation counts, and the fees the platform took, per currency.
 */
export async function loadPaymentsAndFees(db: Executor, transactionId: number) {
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
    network: string | null;
    watched_confirmations: number | null;
    is_late: boolean | null;
  }>(
    db,
    sql`select 'payment' as kind, c.id, c.currency, c.address, c.tag, d.amount::text as amount, c.txid,
               c.risk_score, c.block_height as height, t.height as tip, d.id as position,
               d.locked_amount::text as locked_amount, d.locked_rate_numerator::text as locked_rate_numerator,
               d.locked_rate_denominator::text as locked_rate_denominator,
               d.rate_numerator::text as rate_numerator, d.rate_denominator::text as rate_denominator,
               c.network, d.confirmations as watched_confirmations, d.is_late
        from deposits d
        join chain_transactions c on c.id = d.chain_transaction_id
        left join chain_tips t on t.currency = c.currency
        where d.transaction_id = ${transactionId}
        union all
        select 'fee', null, e.currency, null, null, sum(e.amount)::text, null, null, null, null, null,
               null, null, null, null, null, null, null, null
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
      (row): TransactionEntry => ({
        id: Number(row.id),
        currency: row.currency,
        transaction_type: "blockchain",
        type: "deposit",
        address: row.address!,
        tag: row.tag || null,
        amount: formatAmount(parseStoredAmount(row.amount)),
        txid: row.txid!,
        ...(row.risk_score !== null && { riskscore: row.risk_score }),
        // A real network's watcher counts confirmations against its node; the sandbox's tip is its own.
        confirmations: String(
          row.network !== null ? (row.watched_confirmations ?? 0) : confirmationsOf(row.height, row.tip),
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
          // Paid to an invoice that had already closed (credited all the same).
          is_late: row.is_late === true,
        },
      };
    });
  const fees = new Map(
    rows.filter((row) => row.kind === "fee").map((row) => [row.currency, parseStoredAmount(row.amount)]),
  );
  return { payments, fees, paymentRates };
}
