import "server-only";

import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { platformAccount } from "@/lib/ledger/accounts";
import { postJournal } from "@/lib/ledger/post-journal";
import { formatAmount } from "@/lib/money";
import type { EvmNetwork } from "../evm-network";
import { findMinedAttempt } from "../find-mined-attempt";
import { toLedgerAmount } from "../to-ledger-amount";
import { tokenTransfers } from "../token-transfers";

type Transfer = { logIndex: number; baseUnits: bigint };

export type HotWalletFunding = {
  txid: string;
  currency: string;
  amount: string;
  /** False when this transaction was recorded before (the command is idempotent). */
  recorded: boolean;
};

/** The transaction's transfers of `currency` to the hot wallet, read from the node. */
async function transfersToHotWallet(
  network: EvmNetwork,
  input: { txid: `0x${string}`; currency: string; hotWallet: string },
): Promise<{ transfers: Transfer[]; blockNumber: bigint; blockHash: string }> {
  const receipt = (await findMinedAttempt(network, [input.txid]))?.receipt;
  if (!receipt) throw fieldError({ txid: "The node knows no mined transaction with this id." });
  if (receipt.status !== "success")
    throw fieldError({ txid: "This transaction reverted: it moved nothing." });
  const tip = await network.client.getBlockNumber({ cacheTime: 0 });
  const required = BigInt(network.confirmations[input.currency] ?? 1);
  if (tip - receipt.blockNumber + 1n < required)
    throw fieldError({ txid: `Wait for ${required} confirmations, then record it.` });
  const wallet = input.hotWallet.toLowerCase();
  const mined = { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
  if (input.currency === "ETH") {
    const transaction = await network.client.getTransaction({ hash: input.txid });
    const isToWallet = transaction.to?.toLowerCase() === wallet && transaction.value > 0n;
    return { ...mined, transfers: isToWallet ? [{ logIndex: -1, baseUnits: transaction.value }] : [] };
  }
  const token = network.tokens.find((t) => t.currency === input.currency);
  if (!token) throw fieldError({ currency: `${input.currency} has no contract on this node.` });
  const transfers = tokenTransfers(network, receipt, input.currency)
    .filter((transfer) => transfer.to === wallet)
    .map(({ logIndex, baseUnits }) => ({ logIndex, baseUnits }));
  return { ...mined, transfers };
}

/**
 * Records the operator's funding of the hot wallet (`cli chain fund`): the transfers of `currency`
 * to the hot wallet in a mined, confirmed transaction, read from the node (never typed in), each
 * booked from platform:chain to platform:owner in the same transaction as its chain_transactions
 * row, whose unique key makes a second call for the same txid record nothing. Without this, the
 * operator's money in the hot wallet would be a difference reconciliation cannot explain.
 */
export async function recordHotWalletFunding(
  db: Db,
  input: { network: EvmNetwork; hotWallet: `0x${string}`; txid: string; currency: string },
): Promise<HotWalletFunding> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(input.txid))
    throw fieldError({ txid: "Give the funding transaction's hash: 0x and 64 hexadecimal digits." });
  const txid = input.txid.toLowerCase() as `0x${string}`;
  const decimals =
    input.currency === "ETH" ? 18 : input.network.tokens.find((t) => t.currency === input.currency)?.decimals;
  if (decimals === undefined)
    throw fieldError({ currency: `${input.currency} has no contract on this node.` });
  const found = await transfersToHotWallet(input.network, {
    txid,
    currency: input.currency,
    hotWallet: input.hotWallet,
  });
  if (found.transfers.length === 0)
    throw fieldError({
      txid: `This transaction sent no ${input.currency} to the hot wallet ${input.hotWallet}.`,
    });
  let total = 0n;
  let recorded = false;
  await inTransaction(db, async (tx) => {
    for (const transfer of found.transfers) {
      const { amount, dust } = toLedgerAmount(transfer.baseUnits, decimals);
      total += amount;
      // Raw: ON CONFLICT DO NOTHING ... RETURNING tells a new row from one recorded before.
      const inserted = await queryRows<{ id: string | number }>(
        tx,
        sql`insert into chain_transactions (currency, txid, address, amount, direction, network, log_index,
                                            base_amount, dust, block_height, block_hash)
            values (${input.currency}, ${txid}, ${input.hotWallet.toLowerCase()}, ${formatAmount(amount)}, 'in',
                    ${input.network.network}, ${transfer.logIndex}, ${transfer.baseUnits.toString()},
                    ${dust.toString()}, ${Number(found.blockNumber)}, ${found.blockHash})
            on conflict (currency, txid, log_index) do nothing returning id`,
      );
      if (inserted.length === 0 || amount === 0n) continue;
      recorded = true;
      await postJournal(tx, {
        merchantId: null,
        kind: "hot_wallet_funding",
        memo: `Hot wallet ${input.hotWallet} funded by the operator: ${txid} (log ${transfer.logIndex})`,
        entries: [
          { account: platformAccount("platform:chain", input.currency), amount: -amount },
          { account: platformAccount("platform:owner", input.currency), amount },
        ],
      });
    }
  });
  return { txid, currency: input.currency, amount: formatAmount(total), recorded };
}
