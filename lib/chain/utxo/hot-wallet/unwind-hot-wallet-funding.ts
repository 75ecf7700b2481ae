import "server-only";

import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db/client";
import { platformAccount } from "@/lib/ledger/accounts";
import { postJournal } from "@/lib/ledger/post-journal";
import { parseStoredAmount } from "@/lib/money";
import { isFundingCoin } from "./utxo-hot-wallet";

/**
 * Takes back a hot-wallet funding whose block a reorganisation removed, in the caller's transaction:
 * `pending` if the node still has it, else `removed`; a credited one is reversed platform:owner →
 * platform:chain. A coin a payout already spent stays `spent`, logged loudly when its funding is gone.
 * Returns false when the payment is no funding (a deposit settles by its own rules).
 */
export async function unwindHotWalletFunding(
  tx: Tx,
  input: { chainTransactionId: number; to: "pending" | "removed" },
): Promise<boolean> {
  // Raw: the coin locked with its payment's amount, funding coins picked by their path.
  const [coin] = await queryRows<{
    id: string | number;
    status: string;
    currency: string;
    txid: string;
    vout: number;
    amount: string;
  }>(
    tx,
    sql`select u.id, u.status, u.currency, u.txid, u.vout, c.amount::text as amount
        from utxo_coins u join chain_transactions c on c.id = u.chain_transaction_id
        where u.chain_transaction_id = ${input.chainTransactionId} and ${isFundingCoin("u")}
        for update of u`,
  );
  if (!coin) return false;
  const isCredited = coin.status === "spendable" || coin.status === "spent";
  // A spent coin still on the node keeps its credit: the payout that spent it may be mined with it again.
  if (coin.status === "spent" && input.to === "pending") return true;
  if (coin.status !== "spent")
    await tx.execute(
      sql`update utxo_coins set status = ${input.to}, updated_at = now() where id = ${coin.id}`,
    );
  if (!isCredited) return true;
  const amount = parseStoredAmount(coin.amount);
  await postJournal(tx, {
    merchantId: null,
    kind: "hot_wallet_funding_reversed",
    memo: `Hot wallet funding ${coin.txid}:${coin.vout} taken off the chain by a reorganisation`,
    entries: [
      { account: platformAccount("platform:owner", coin.currency), amount: -amount },
      { account: platformAccount("platform:chain", coin.currency), amount },
    ],
  });
  if (coin.status === "spent")
    console.error(
      `[chain] INCIDENT: hot wallet funding ${coin.txid}:${coin.vout} left the chain after a payout spent it; its funding was reversed, the payout cannot confirm without it`,
    );
  return true;
}
