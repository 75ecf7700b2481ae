import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { parseStoredAmount } from "@/lib/money";
import { isFundingCoin } from "../hot-wallet/utxo-hot-wallet";

/** One of Kassa's coins on a UTXO chain as its records have it. */
export type RecordedCoin = {
  txid: string;
  vout: number;
  baseAmount: bigint;
  status: "pending" | "spendable" | "spent" | "removed";
  spentByPayoutId: number | null;
  /** A coin a payment brought (a deposit or a funding), not a payout's change. */
  isPayment: boolean;
  /** A payment booked to the ledger: its deposit credited (or rejected into compliance), its funding credited. */
  isBooked: boolean;
  /** What the booking posted, ledger units (0 when not booked). */
  bookedAmount: bigint;
};

/** One of Kassa's payout transactions, with what the ledger booked for the withdrawals it pays. */
export type RecordedPayout = {
  id: number;
  txid: string;
  /** What its outputs to payees carry, base units. */
  paid: bigint;
  /** The withdrawals' net entries on platform:chain in the payout's coin, fees left out (ledger units). */
  ledgerSent: bigint;
  /**
   * Their network fees booked to platform:chain (withdrawal_network_fee journals), ledger units; a
   * consolidation's own fee once it is settled (booked in the same transaction).
   */
  feeBooked: bigint;
};

export async function readRecordedCoins(db: Executor, network: string): Promise<RecordedCoin[]> {
  // Raw: whether each payment was booked reads plainer in SQL (deposits, or the funding coin's own status).
  const rows = await queryRows<{
    txid: string;
    vout: number;
    base_amount: string;
    status: RecordedCoin["status"];
    spent_by_payout_id: string | number | null;
    is_payment: boolean;
    is_booked: boolean;
    amount: string | null;
  }>(
    db,
    sql`select u.txid, u.vout, u.base_amount::text as base_amount, u.status, u.spent_by_payout_id,
               u.chain_transaction_id is not null as is_payment,
               case when ${isFundingCoin("u")} then u.status in ('spendable', 'spent')
                    else exists (select 1 from deposits d where d.chain_transaction_id = u.chain_transaction_id
                                   and d.status in ('credited', 'rejected')) end as is_booked,
               c.amount::text as amount
        from utxo_coins u left join chain_transactions c on c.id = u.chain_transaction_id
        where u.network = ${network} order by u.id`,
  );
  return rows.map((r) => ({
    txid: r.txid,
    vout: r.vout,
    baseAmount: BigInt(r.base_amount),
    status: r.status,
    spentByPayoutId: r.spent_by_payout_id === null ? null : Number(r.spent_by_payout_id),
    isPayment: r.is_payment,
    isBooked: r.is_payment && r.is_booked,
    bookedAmount: r.is_payment && r.is_booked && r.amount !== null ? parseStoredAmount(r.amount) : 0n,
  }));
}

export async function readRecordedPayouts(db: Executor, network: string): Promise<RecordedPayout[]> {
  // Raw: a payout's entries on platform:chain are found through its withdrawals' transaction ids.
  const rows = await queryRows<{
    id: string | number;
    txid: string;
    paid: string;
    sent: string;
    fee: string;
  }>(
    db,
    sql`with outputs as (
          select o.payout_id, o.base_amount, substring(o.reference from 12)::bigint as transaction_id
          from utxo_payout_outputs o join utxo_payouts p on p.id = o.payout_id
          where p.network = ${network} and o.reference like 'withdrawal:%'),
        entries as (
          select o.payout_id, j.kind, e.amount
          from (select distinct payout_id, transaction_id from outputs) o
          join utxo_payouts p on p.id = o.payout_id
          join journals j on j.transaction_id = o.transaction_id
          join ledger_entries e on e.journal_id = j.id
          join ledger_accounts a on a.id = e.account_id
          where a.kind = 'platform:chain' and a.merchant_id is null and a.currency = p.currency)
        select p.id, p.txid,
               coalesce((select sum(base_amount) from outputs o where o.payout_id = p.id), 0)::text as paid,
               coalesce((select sum(amount) from entries e where e.payout_id = p.id and e.kind <> 'withdrawal_network_fee'), 0)::text as sent,
               -- A consolidation pays no withdrawal: its fee is booked (utxo_consolidation) as it is settled.
               case when not exists (select 1 from utxo_payout_outputs o where o.payout_id = p.id)
                    then (case when p.status = 'confirmed' then p.fee / 100000000 else 0 end)::numeric(38, 8)::text
                    else coalesce((select sum(amount) from entries e where e.payout_id = p.id and e.kind = 'withdrawal_network_fee'), 0)::text
               end as fee
        from utxo_payouts p where p.network = ${network} order by p.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    txid: r.txid,
    paid: BigInt(r.paid),
    ledgerSent: parseStoredAmount(r.sent),
    feeBooked: parseStoredAmount(r.fee),
  }));
}
