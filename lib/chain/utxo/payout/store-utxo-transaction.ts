import "server-only";

import type { Transaction } from "@scure/btc-signer";
import { inArray, sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db/client";
import { utxoCoins, utxoPayouts } from "@/lib/db/schema";
import type { UtxoNetwork } from "../utxo-network";

export type StoredUtxoPayout = typeof utxoPayouts.$inferSelect;

/** The id the next utxo_payouts row takes, drawn before signing: the change address is derived from it. */
export async function nextPayoutId(tx: Tx): Promise<number> {
  const [next] = await queryRows<{ id: string }>(
    tx,
    sql`select nextval(pg_get_serial_sequence('utxo_payouts', 'id'))::text as id`,
  );
  return Number(next!.id);
}

/**
 * Stores a signed transaction of Kassa's (a payout or a consolidation) with what it changes, in the
 * caller's database transaction and before anything is sent: its utxo_payouts row, the coins it
 * spends (`spent` by it) and its change, a new coin `pending` until the transaction confirms.
 */
export async function storeUtxoTransaction(
  tx: Tx,
  input: {
    id: number;
    network: UtxoNetwork;
    transaction: Transaction;
    feeRate: bigint;
    spentCoinIds: number[];
    change: { vout: number; address: string; path: string } | null;
  },
): Promise<StoredUtxoPayout> {
  const { id, network, transaction, change } = input;
  const [stored] = await tx
    .insert(utxoPayouts)
    .values({
      id,
      network: network.network,
      currency: network.currency,
      txid: transaction.id,
      rawTransaction: transaction.hex,
      fee: transaction.fee,
      vsize: transaction.vsize,
      feeRate: input.feeRate,
    })
    .returning();
  await tx
    .update(utxoCoins)
    .set({ status: "spent", spentByPayoutId: id, updatedAt: new Date() })
    .where(inArray(utxoCoins.id, input.spentCoinIds));
  if (change)
    await tx.insert(utxoCoins).values({
      network: network.network,
      currency: network.currency,
      txid: transaction.id,
      vout: change.vout,
      baseAmount: transaction.getOutput(change.vout).amount!,
      address: change.address,
      derivationPath: change.path,
      changeOfPayoutId: id,
    });
  return stored!;
}
