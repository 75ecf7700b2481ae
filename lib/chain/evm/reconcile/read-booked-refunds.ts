import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { parseStoredAmount } from "@/lib/money";

/** A compliance refund booked for a payment held on this network (`cli compliance refund`). */
export type BookedRefund = {
  txid: string;
  currency: string;
  /** The refund journal's entries on platform:chain, ledger units: in the payment's currency, and in ETH (gas, plus the amount for an ETH refund). */
  ledgerSent: bigint;
  ledgerEth: bigint;
};

/** The refunds of rejected payments that arrived on `network`, with what the ledger booked for each on platform:chain. */
export async function readBookedRefunds(db: Executor, network: string): Promise<BookedRefund[]> {
  // Raw: the refund's entries are found through the journal the review's transaction owns.
  const rows = await queryRows<{ txid: string; currency: string; ledger_sent: string; ledger_eth: string }>(
    db,
    sql`select r.refund_txid as txid, d.currency,
               coalesce((select sum(e.amount) from ledger_entries e
                         join journals j on j.id = e.journal_id
                         join ledger_accounts a on a.id = e.account_id
                         where j.kind = 'compliance_refund' and j.transaction_id = r.transaction_id
                           and a.kind = 'platform:chain' and a.merchant_id is null
                           and a.currency = d.currency), 0)::text as ledger_sent,
               coalesce((select sum(e.amount) from ledger_entries e
                         join journals j on j.id = e.journal_id
                         join ledger_accounts a on a.id = e.account_id
                         where j.kind = 'compliance_refund' and j.transaction_id = r.transaction_id
                           and a.kind = 'platform:chain' and a.merchant_id is null
                           and a.currency = 'ETH'), 0)::text as ledger_eth
        from compliance_reviews r
        join deposits d on d.id = r.deposit_id
        join chain_transactions c on c.id = d.chain_transaction_id
        where r.refunded_at is not null and c.network = ${network}`,
  );
  return rows.map((r) => ({
    txid: r.txid,
    currency: r.currency,
    ledgerSent: parseStoredAmount(r.ledger_sent),
    ledgerEth: parseStoredAmount(r.ledger_eth),
  }));
}
