import "server-only";

import { sql } from "drizzle-orm";
import { findCurrency } from "@/lib/currencies/registry";
import { type Executor, queryRows } from "@/lib/db/client";
import { formatAmount, parseStoredAmount } from "@/lib/money";
import { RETURNED_WITHDRAWAL_STATUSES } from "@/lib/withdrawals/list-refunds";
import type { TransactionRow } from "./list-transactions";

export type AccountingFields = {
  fee: string;
  fee_currency: string;
  net: string;
  net_currency: string;
  destination_address: string;
  txid: string;
  fiat_value: string;
  fiat_currency: string;
};

const EMPTY: AccountingFields = {
  fee: "",
  fee_currency: "",
  net: "",
  net_currency: "",
  destination_address: "",
  txid: "",
  fiat_value: "",
  fiat_currency: "",
};

/** Amounts per currency as cells: one amount in one currency, or several joined by ";". */
function cells(amounts: Map<string, bigint>): { amount: string; currency: string } {
  const entries = [...amounts].filter(([, amount]) => amount !== 0n);
  return {
    amount: entries.map(([, amount]) => formatAmount(amount)).join(";"),
    currency: entries.map(([currency]) => currency).join(";"),
  };
}

function add(map: Map<number, Map<string, bigint>>, id: number, currency: string, amount: bigint) {
  const amounts = map.get(id) ?? new Map<string, bigint>();
  amounts.set(currency, (amounts.get(currency) ?? 0n) + amount);
  map.set(id, amounts);
}

/**
 * An export page's accounting cells, in three queries whatever its size. `fee`: a payout's fees as its row
 * fixed them (none once its funds returned), else what the ledger booked as fees for it; `net`: what a payout
 * sent, else what the ledger credited (none while unconfirmed); address, txid: the payout's, or the payments'
 * (space-separated); `fiat_value`: its amount when in fiat, else empty (Kassa keeps no fiat price of crypto).
 */
export async function loadAccountingFields(
  db: Executor,
  rows: readonly TransactionRow[],
): Promise<Map<number, AccountingFields>> {
  const fields = new Map<number, AccountingFields>();
  if (rows.length === 0) return fields;
  const ids = sql.join(
    rows.map((row) => sql`${row.id}::bigint`),
    sql`, `,
  );
  // One after the other: `db` may be a transaction, which runs one statement at a time.
  const payouts = await queryRows<{
    id: string | number;
    source: string;
    target: string;
    fees: string;
    sent: string;
    address: string;
    txid: string | null;
  }>(
    db,
    sql`select transaction_id as id, source_currency as source, target_currency as target,
               (withdrawal_fee + network_fee)::text as fees, sent_amount::text as sent, address, txid
        from withdrawals where transaction_id in (${ids})`,
  );
  const payments = await queryRows<{ id: string | number; addresses: string; txids: string }>(
    db,
    sql`select d.transaction_id as id, string_agg(distinct c.address, ' ') as addresses,
               string_agg(c.txid, ' ' order by d.id) as txids
        from deposits d join chain_transactions c on c.id = d.chain_transaction_id
        where d.transaction_id in (${ids})
        group by d.transaction_id`,
  );
  const booked = await queryRows<{ id: string | number; kind: string; currency: string; amount: string }>(
    db,
    sql`select j.transaction_id as id, a.kind, e.currency, sum(e.amount)::text as amount
        from journals j
        join ledger_entries e on e.journal_id = j.id
        join ledger_accounts a on a.id = e.account_id
        where j.transaction_id in (${ids})
          and (a.kind = 'platform:fees' or (a.kind = 'balance' and e.amount > 0))
        group by j.transaction_id, a.kind, e.currency`,
  );
  const fees = new Map<number, Map<string, bigint>>();
  const credits = new Map<number, Map<string, bigint>>();
  for (const row of booked) {
    add(row.kind === "balance" ? credits : fees, Number(row.id), row.currency, parseStoredAmount(row.amount));
  }
  const payoutOf = new Map(payouts.map((p) => [Number(p.id), p]));
  const paymentsOf = new Map(payments.map((p) => [Number(p.id), p]));
  for (const row of rows) {
    const payout = payoutOf.get(row.id);
    const paid = paymentsOf.get(row.id);
    const isFiat =
      row.currency !== null && row.amount !== null && findCurrency(row.currency)?.kind === "fiat";
    const entry: AccountingFields = {
      ...EMPTY,
      fiat_value: isFiat ? row.amount! : "",
      fiat_currency: isFiat ? row.currency! : "",
    };
    if (payout) {
      entry.destination_address = payout.address;
      entry.txid = payout.txid ?? "";
      if (!RETURNED_WITHDRAWAL_STATUSES.includes(row.status)) {
        const fee = cells(new Map([[payout.source, parseStoredAmount(payout.fees)]]));
        Object.assign(entry, {
          fee: fee.amount,
          fee_currency: fee.currency,
          net: formatAmount(parseStoredAmount(payout.sent)),
          net_currency: payout.target,
        });
      }
    } else {
      const fee = cells(fees.get(row.id) ?? new Map());
      const net = cells(credits.get(row.id) ?? new Map());
      Object.assign(entry, {
        fee: fee.amount,
        fee_currency: fee.currency,
        net: net.amount,
        net_currency: net.currency,
        destination_address: paid?.addresses ?? "",
        txid: paid?.txids ?? "",
      });
    }
    fields.set(row.id, entry);
  }
  return fields;
}
