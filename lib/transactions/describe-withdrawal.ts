import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { formatAmount } from "@/lib/money";
import { formatStoredRate } from "@/lib/rates/rate";
import type { TransactionInfo } from "@/lib/schemas/transactions";
import { loadWithdrawal } from "@/lib/withdrawals/load-withdrawal";
import { withdrawalReference } from "@/lib/withdrawals/withdrawal-reference";
import { confirmationsOf, spreadPercent, type TransactionEntry } from "./info-fields";
import { wireStatus } from "./wire-status";

/** transactions/info for any kind of withdrawal: the exchange (if any), the payout and its fees. */
export async function describeWithdrawal(db: Executor, id: number): Promise<TransactionInfo> {
  const record = (await loadWithdrawal(db, id))!;
  const { withdrawal: w } = record;
  const status = wireStatus(record.status);
  // Nothing was sent: refused by the network or an operator (cancelled), or by an approver (declined).
  const isFailed = status === "cancelled" || status === "declined";
  // A sandbox payout counts against the sandbox's tip; a real EVM payout (no sandbox chain row)
  // against the watcher's cursor on its network, as its deposits do.
  const [chain] = w.chainTransactionId
    ? await queryRows<{ height: number | null; tip: number | null }>(
        db,
        sql`select c.block_height as height, t.height as tip from chain_transactions c
            left join chain_tips t on t.currency = c.currency where c.id = ${w.chainTransactionId}`,
      )
    : await queryRows<{ height: number | null; tip: number | null }>(
        db,
        sql`select p.block_number::int as height, k.block_number::int as tip from evm_payouts p
            left join chain_cursors k on k.network = p.network where p.reference = ${withdrawalReference(id)}`,
      );
  const confirmations = chain ? confirmationsOf(chain.height, chain.tip) : 0;
  const entries: TransactionEntry[] = [];
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
      // The destination's address record (lib/db/schema/withdrawals.ts payoutAddresses), as the
      // public API names an address here, not the withdrawal.
      id: w.payoutAddressId ?? id,
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
