import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { parseStoredAmount } from "@/lib/money";

/** A transfer to a deposit address as the watcher recorded it (Kassa's own gas top-ups left out). */
export type RecordedPayment = {
  currency: string;
  baseAmount: bigint;
  /** In ledger units: what a credit posted. */
  amount: bigint;
  isCredited: boolean;
  isRemoved: boolean;
};

/** A transaction Kassa signed from one of its addresses: a payout, a gas top-up or a sweep. */
export type SignedTransaction = {
  kind: "payout" | "top-up" | "sweep";
  currency: string;
  /** What it moves, in base units. */
  baseAmount: bigint;
  status: "signed" | "confirmed" | "reverted";
  hashes: string[];
  blockNumber: bigint | null;
  /** Wei, once settled. */
  feePaid: bigint | null;
  /** A payout's net entries on platform:chain in its currency, ledger units (the withdrawal_sent journal and any reversal). */
  ledgerSent: bigint;
};

/**
 * Transfers the watcher recorded to deposit addresses, and the operator's fundings of the hot wallet
 * (`cli chain fund`, booked when recorded, so counted as credited).
 */
export async function readRecordedPayments(
  db: Executor,
  input: { network: string; hotWallet: string },
): Promise<RecordedPayment[]> {
  const { network } = input;
  // Raw: the credited test and the exclusion of Kassa's own top-ups read plainer in SQL.
  const rows = await queryRows<{
    currency: string;
    base_amount: string;
    amount: string;
    is_credited: boolean;
    is_removed: boolean;
  }>(
    db,
    sql`select ct.currency, ct.base_amount::text as base_amount, ct.amount::text as amount,
               (lower(ct.address) = ${input.hotWallet.toLowerCase()}
                or exists (select 1 from deposits d
                           -- rejected in compliance review: booked too (to platform:compliance_held)
                           where d.chain_transaction_id = ct.id and d.status in ('credited', 'rejected'))) as is_credited,
               ct.removed_at is not null as is_removed
        from chain_transactions ct
        where ct.network = ${network} and ct.direction = 'in'
          and not exists (select 1 from evm_payouts p
                          where p.network = ${network} and p.reference like 'sweep-gas:%'
                            and (lower(ct.txid) = lower(p.tx_hash) or lower(ct.txid) = any(p.replaced_hashes)))`,
  );
  return rows.map((r) => ({
    currency: r.currency,
    baseAmount: BigInt(r.base_amount ?? "0"),
    amount: parseStoredAmount(r.amount),
    isCredited: r.is_credited,
    isRemoved: r.is_removed,
  }));
}

/** The columns evm_payouts and evm_sweeps share, as read here (numbers as text). */
type SignedRow = {
  currency: string;
  base_amount: string;
  status: SignedTransaction["status"];
  tx_hash: string;
  replaced_hashes: string[];
  block_number: string | null;
  fee_paid: string | null;
};

const optional = (value: string | null) => (value === null ? null : BigInt(value));

function signedTransactionOf(
  row: SignedRow,
  input: { kind: SignedTransaction["kind"]; ledgerSent: bigint },
): SignedTransaction {
  return {
    kind: input.kind,
    currency: row.currency,
    baseAmount: BigInt(row.base_amount),
    status: row.status,
    hashes: [row.tx_hash, ...row.replaced_hashes],
    blockNumber: optional(row.block_number),
    feePaid: optional(row.fee_paid),
    ledgerSent: input.ledgerSent,
  };
}

export async function readSignedTransactions(db: Executor, network: string): Promise<SignedTransaction[]> {
  // Raw: a payout's entries on platform:chain are found through its withdrawal's transaction id.
  const payouts = await queryRows<SignedRow & { reference: string; ledger_sent: string }>(
    db,
    sql`select p.reference, p.currency, p.base_amount::text as base_amount, p.status, p.tx_hash,
               p.replaced_hashes, p.block_number::text as block_number, p.fee_paid::text as fee_paid,
               coalesce((select sum(e.amount) from ledger_entries e
                         join journals j on j.id = e.journal_id
                         join ledger_accounts a on a.id = e.account_id
                         where p.reference like 'withdrawal:%'
                           and j.transaction_id = substring(p.reference from 12)::bigint
                           and j.kind <> 'withdrawal_network_fee'
                           and a.kind = 'platform:chain' and a.merchant_id is null
                           and a.currency = p.currency), 0)::text as ledger_sent
        from evm_payouts p where p.network = ${network}`,
  );
  const sweeps = await queryRows<SignedRow>(
    db,
    sql`select currency, base_amount::text as base_amount, status, tx_hash, replaced_hashes,
               block_number::text as block_number, fee_paid::text as fee_paid
        from evm_sweeps where network = ${network}`,
  );
  return [
    ...payouts.map((p) =>
      signedTransactionOf(p, {
        kind: p.reference.startsWith("sweep-gas:") ? "top-up" : "payout",
        ledgerSent: parseStoredAmount(p.ledger_sent),
      }),
    ),
    ...sweeps.map((s) => signedTransactionOf(s, { kind: "sweep", ledgerSent: 0n })),
  ];
}

/** What the ledger says Kassa holds on chain per currency: the other side of platform:chain, in ledger units. */
export async function readLedgerHoldings(
  db: Executor,
  currencies: readonly string[],
): Promise<Record<string, bigint>> {
  const rows = await queryRows<{ currency: string; balance: string }>(
    db,
    sql`select currency, balance::text as balance from ledger_accounts
        where merchant_id is null and kind = 'platform:chain'`,
  );
  const holdings: Record<string, bigint> = {};
  for (const currency of currencies) {
    const row = rows.find((r) => r.currency === currency);
    holdings[currency] = row ? -parseStoredAmount(row.balance) : 0n;
  }
  return holdings;
}
