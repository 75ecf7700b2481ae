import "server-only";

import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { platformAccount } from "@/lib/ledger/accounts";
import { postJournal } from "@/lib/ledger/post-journal";
import { parseStoredAmount } from "@/lib/money";
import { isFundingCoin } from "./utxo-hot-wallet";

type PendingFunding = {
  coin_id: string | number;
  chain_transaction_id: string | number;
  currency: string;
  txid: string;
  vout: number;
  amount: string;
  height: number;
  block_hash: string;
  tip: string;
};

/**
 * Credits the operator's hot-wallet fundings that reached their confirmations (from the watcher's cursor),
 * each in one transaction: the coin becomes spendable and platform:chain → platform:owner, as EVM fundings
 * are booked, never a merchant's deposit. A conditional change under the payment's row lock, in its counted
 * block only, credits each once despite concurrency or reorgs. Returns how many this call credited.
 */
export async function creditHotWalletFunding(
  db: Db,
  input: { network: { network: string; currency: string; confirmations: Record<string, number> } },
): Promise<number> {
  const { network } = input;
  const required = network.confirmations[network.currency] ?? Number.POSITIVE_INFINITY;
  // Raw: the cursor's bigint height read as text, and the funding coins picked by their path.
  const pending = await queryRows<PendingFunding>(
    db,
    sql`select u.id as coin_id, u.chain_transaction_id, u.currency, u.txid, u.vout, c.amount::text as amount,
               c.block_height as height, c.block_hash, k.block_number::text as tip
        from utxo_coins u
        join chain_transactions c on c.id = u.chain_transaction_id
        join chain_cursors k on k.network = u.network
        where u.network = ${network.network} and u.status = 'pending' and ${isFundingCoin("u")}
          and c.removed_at is null and c.block_height is not null
        order by u.id`,
  );
  let credited = 0;
  for (const funding of pending) {
    if (Number(funding.tip) - funding.height + 1 < required) continue;
    const isCredited = await inTransaction(db, async (tx) => {
      const [still] = await queryRows<{ id: string | number }>(
        tx,
        sql`select id from chain_transactions where id = ${funding.chain_transaction_id}
              and removed_at is null and block_hash = ${funding.block_hash} for update`,
      );
      if (!still) return false; // a reorganisation took its block meanwhile
      const changed = await queryRows<{ id: string | number }>(
        tx,
        sql`update utxo_coins set status = 'spendable', updated_at = now()
            where id = ${funding.coin_id} and status = 'pending' returning id`,
      );
      if (changed.length === 0) return false; // another worker credited it
      const amount = parseStoredAmount(funding.amount);
      await postJournal(tx, {
        merchantId: null,
        kind: "hot_wallet_funding",
        memo: `Hot wallet funded by the operator: ${funding.txid}:${funding.vout}`,
        entries: [
          { account: platformAccount("platform:chain", funding.currency), amount: -amount },
          { account: platformAccount("platform:owner", funding.currency), amount },
        ],
      });
      return true;
    });
    if (isCredited) credited++;
  }
  return credited;
}
