import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { toLedgerAmount } from "@/lib/chain/evm/to-ledger-amount";
import type { Clock } from "@/lib/clock";
import { queryRows, type Tx } from "@/lib/db/client";
import { amountSql, depositAddresses, utxoCoins } from "@/lib/db/schema";
import { paymentRateSettings } from "@/lib/deposits/payment-rate-settings";
import { recordIncomingPayment } from "@/lib/deposits/record-incoming-payment";
import type { UtxoHotWallet } from "./hot-wallet/utxo-hot-wallet";
import type { FoundOutput } from "./utxo-outputs";

/** A payment as the watcher found it: an output to Kassa, with the sender's address when it could be read. */
export type UtxoPayment = FoundOutput & { sender: string | null };

/** The block a payment was read in, or null for the mempool. */
export type UtxoBlock = { height: number; hash: string; time: Date };

/**
 * Records outputs paid to Kassa in the caller's transaction, each once as a chain transaction (vout as log
 * index; a racing worker waits on the unique index). A new one, or one back after a reorganisation or double
 * spend, gets a `pending` coin and is reported as a deposit, unless it funds the hot wallet (for
 * creditHotWalletFunding). A mempool one now mined only gets its block. Returns how many were new or back.
 */
export async function storeUtxoPayments(
  tx: Tx,
  input: {
    network: string;
    currency: string;
    payments: UtxoPayment[];
    block: UtxoBlock | null;
    hotWallet?: UtxoHotWallet;
    clock?: Clock;
  },
): Promise<number> {
  const { block } = input;
  let reported = 0;
  for (const payment of input.payments) {
    const { amount, dust } = toLedgerAmount(payment.baseUnits, 8);
    const isFunding = payment.address === input.hotWallet?.address;
    // Raw: ON CONFLICT DO NOTHING with RETURNING tells the worker that inserted it from any other.
    const [inserted] = await queryRows<{ id: string | number }>(
      tx,
      sql`insert into chain_transactions
            (currency, txid, log_index, network, address, sender_address, amount, base_amount, dust, direction, block_height, block_hash)
          values (${input.currency}, ${payment.txid}, ${payment.vout}, ${input.network}, ${payment.address}, ${payment.sender},
            ${amountSql(amount)}, ${payment.baseUnits.toString()}::numeric, ${dust.toString()}::numeric, 'in',
            ${block?.height ?? null}, ${block?.hash ?? null})
          on conflict (currency, txid, log_index) do nothing
          returning id`,
    );
    let id: number;
    if (inserted) {
      id = Number(inserted.id);
      const [address] = await tx
        .select({ path: depositAddresses.derivationPath })
        .from(depositAddresses)
        .where(
          and(eq(depositAddresses.currency, input.currency), eq(depositAddresses.address, payment.address)),
        );
      await tx
        .insert(utxoCoins)
        .values({
          network: input.network,
          currency: input.currency,
          txid: payment.txid,
          vout: payment.vout,
          baseAmount: payment.baseUnits,
          address: payment.address,
          derivationPath: isFunding ? input.hotWallet!.path : (address?.path ?? ""),
          chainTransactionId: id,
        })
        // An output that is already Kassa's coin (one of Kassa's own transactions paid the hot wallet,
        // which stored its coin when signing) stays that coin: never taken for the operator's funding.
        .onConflictDoNothing({ target: [utxoCoins.network, utxoCoins.txid, utxoCoins.vout] });
    } else {
      // Raw: the known row, locked, with whether a reorganisation or a double spend had removed it.
      const [known] = await queryRows<{ id: string | number; removed: boolean; block_hash: string | null }>(
        tx,
        sql`select id, removed_at is not null as removed, block_hash from chain_transactions
            where currency = ${input.currency} and txid = ${payment.txid} and log_index = ${payment.vout} for update`,
      );
      id = Number(known!.id);
      if (!known!.removed) {
        // Seen in the mempool before (or in a block a reorganisation replaced): now in this block.
        if (block && known!.block_hash !== block.hash)
          await tx.execute(
            sql`update chain_transactions set block_height = ${block.height}, block_hash = ${block.hash} where id = ${id}`,
          );
        continue;
      }
      await tx.execute(
        sql`update chain_transactions set removed_at = null, block_height = ${block?.height ?? null}, block_hash = ${block?.hash ?? null}
            where id = ${id}`,
      );
      // Its coin is back: spendable again if its deposit had been credited (an incident says so), else pending.
      await tx.execute(
        sql`update utxo_coins set updated_at = now(), status = case when exists
              (select 1 from deposits where chain_transaction_id = ${id} and status = 'credited') then 'spendable' else 'pending' end
            where chain_transaction_id = ${id} and status = 'removed'`,
      );
    }
    if (isFunding) {
      reported++;
      continue;
    }
    const recorded = await recordIncomingPayment(
      tx,
      {
        chainTransactionId: id,
        currency: input.currency,
        address: payment.address,
        tag: "",
        amount,
        // Judged (lateness, rate lock) by its block's time when first seen in a block; now when in the mempool.
        seenAt: block?.time,
      },
      { settings: input.clock ? { ...paymentRateSettings(), clock: input.clock } : undefined },
    );
    if (recorded) reported++;
  }
  return reported;
}
