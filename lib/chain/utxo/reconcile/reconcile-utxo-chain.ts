import "server-only";

import { sql } from "drizzle-orm";
import { readLedgerHoldings } from "@/lib/chain/evm/reconcile/read-kassa-movements";
import type { Db } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { formatAmount } from "@/lib/money";
import type { UtxoNetwork } from "../utxo-network";
import type { NodeTransaction } from "../utxo-outputs";
import { findNodeTransaction, parseCoins } from "../utxo-rpc";
import { type RecordedCoin, readRecordedCoins, readRecordedPayouts } from "./read-utxo-records";

/**
 * Why the node's view of Kassa's coins and the ledger differ, each as on-chain minus ledger (base
 * units are the ledger's 10^-8 here, so `dust` stays 0). Each field's meaning: docs/OPERATIONS.md,
 * "The hot wallet", Reconciliation.
 */
export const UTXO_EXPLANATIONS = [
  "dust",
  "payments_not_credited",
  "payouts_in_flight",
  "fees_not_booked",
] as const;
type Explanation = (typeof UTXO_EXPLANATIONS)[number];

export type UtxoCurrencyReconciliation = {
  on_chain: string;
  ledger: string;
  difference: string;
  explained: Record<Explanation, string>;
  unexplained: string;
  is_reconciled: boolean;
};

export type UtxoReconciliation = {
  network: string;
  /** The node's tip when its answers were read. */
  block: string;
  hot_wallet: string;
  coins_read: number;
  payouts_read: number;
  currencies: Record<string, UtxoCurrencyReconciliation>;
  is_reconciled: boolean;
};

/** The node's copy of a transaction (mempool, or mined on its active chain; -txindex), or null. */
async function nodeTransaction(
  network: UtxoNetwork,
  txid: string,
): Promise<(NodeTransaction & { confirmations?: number }) | null> {
  const found = await findNodeTransaction<NodeTransaction & { confirmations?: number }>(network.rpc, txid);
  return found && (found.confirmations === undefined || found.confirmations > 0) ? found : null;
}

/** What the node's UTXO set (its mempool included) holds of a coin: its value, or 0 when spent or unknown. */
async function heldOnNode(network: UtxoNetwork, coin: RecordedCoin): Promise<bigint> {
  const output = await network.rpc.call<{ value: string } | null>("gettxout", [coin.txid, coin.vout, true]);
  return output ? parseCoins(output.value) : 0n;
}

/**
 * Compares, exactly, the node's view of Kassa's coins on a UTXO chain with the ledger (platform:chain's other
 * side in that coin), explaining the difference from Kassa's records (docs/OPERATIONS.md, "Reconciliation"):
 * each recorded coin no payout on the node spent is looked up with `gettxout` (mempool included), each payout
 * itself. What no record explains (a coin spent behind Kassa's back, a hand entry, a bug) is `unexplained`.
 */
export async function reconcileUtxoChain(
  db: Db,
  input: { network: UtxoNetwork; hotWallet: string },
): Promise<UtxoReconciliation> {
  const { network } = input;
  const currency = network.currency;
  // One snapshot of the database (no node calls inside it).
  const records = await inTransaction(db, async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read`);
    return {
      ledger: (await readLedgerHoldings(tx, [currency]))[currency]!,
      coins: await readRecordedCoins(tx, network.network),
      payouts: await readRecordedPayouts(tx, network.network),
    };
  });
  const tip = await network.rpc.call<number>("getblockcount");
  const explained = Object.fromEntries(UTXO_EXPLANATIONS.map((why) => [why, 0n])) as Record<
    Explanation,
    bigint
  >;

  // Each payout as the node has it: which of Kassa's coins it spends, and what it pays and costs.
  const coinValue = new Map(records.coins.map((c) => [`${c.txid}:${c.vout}`, c.baseAmount]));
  const spentOnNode = new Set<string>();
  for (const payout of records.payouts) {
    const found = await nodeTransaction(network, payout.txid);
    if (!found) {
      explained.payouts_in_flight += payout.ledgerSent;
      explained.fees_not_booked += payout.feeBooked;
      continue;
    }
    let inputs = 0n;
    for (const spent of found.vin) {
      const key = `${spent.txid}:${spent.vout}`;
      spentOnNode.add(key);
      inputs += coinValue.get(key) ?? 0n;
    }
    const fee = inputs - found.vout.reduce((sum, output) => sum + parseCoins(output.value), 0n);
    explained[payout.ledgerSent > 0n ? "dust" : "payouts_in_flight"] += payout.ledgerSent - payout.paid;
    explained.fees_not_booked += payout.feeBooked - fee;
  }

  let onChain = 0n;
  for (const coin of records.coins) {
    const held = spentOnNode.has(`${coin.txid}:${coin.vout}`) ? 0n : await heldOnNode(network, coin);
    onChain += held;
    if (!coin.isPayment) continue;
    const arrived = coin.status === "removed" ? 0n : coin.baseAmount;
    if (coin.isBooked && arrived > 0n) explained.dust += arrived - coin.bookedAmount;
    else explained.payments_not_credited += arrived - coin.bookedAmount;
  }

  const unexplained =
    onChain - records.ledger - UTXO_EXPLANATIONS.reduce((sum, why) => sum + explained[why], 0n);
  const reconciliation: UtxoCurrencyReconciliation = {
    on_chain: formatAmount(onChain),
    ledger: formatAmount(records.ledger),
    difference: formatAmount(onChain - records.ledger),
    explained: Object.fromEntries(
      UTXO_EXPLANATIONS.map((why) => [why, formatAmount(explained[why])]),
    ) as Record<Explanation, string>,
    unexplained: formatAmount(unexplained),
    is_reconciled: unexplained === 0n,
  };
  return {
    network: network.network,
    block: String(tip),
    hot_wallet: input.hotWallet,
    coins_read: records.coins.length,
    payouts_read: records.payouts.length,
    currencies: { [currency]: reconciliation },
    is_reconciled: reconciliation.is_reconciled,
  };
}
