import "server-only";

import { and, eq } from "drizzle-orm";
import { TransactionReceiptNotFoundError } from "viem";
import type { Db } from "@/lib/db/client";
import { evmPayouts } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { runEach } from "@/lib/jobs/run-each";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { loadWithdrawal } from "@/lib/withdrawals/load-withdrawal";
import { revertSentWithdrawal } from "@/lib/withdrawals/settle-withdrawal";
import type { EvmNetwork } from "../evm-network";
import { sendStoredPayout } from "./send-stored-payout";
import type { StoredPayout } from "./store-signed-payout";

export type PayoutPass = { confirmed: number; reverted: number; resent: number };

const withdrawalIdOf = (reference: string) => Number(/^withdrawal:(\d+)$/.exec(reference)?.[1] ?? Number.NaN);

/**
 * Follows the hot wallet's open payouts to the configured confirmations. Not yet mined: its stored
 * bytes are sent again (a node may have dropped them). Mined and confirmed: the payout row and the
 * withdrawal become `confirmed` (the real txid was recorded at broadcast; the callback is queued
 * with the status change). Mined but reverted: the withdrawal ends `error` and the merchant is
 * refunded by new entries. A withdrawal whose claim has not recorded its txid yet is left for the
 * broadcast job (or the claim sweep) to record first. Safe in several workers at once: each change
 * is made under the withdrawal's row lock and only from `signed`.
 */
export async function trackEvmPayouts(db: Db, input: { network: EvmNetwork }): Promise<PayoutPass> {
  const { network } = input;
  const open = await db
    .select()
    .from(evmPayouts)
    .where(and(eq(evmPayouts.network, network.network), eq(evmPayouts.status, "signed")))
    .orderBy(evmPayouts.nonce);
  const pass: PayoutPass = { confirmed: 0, reverted: 0, resent: 0 };
  if (open.length === 0) return pass;
  const tip = await network.client.getBlockNumber({ cacheTime: 0 });
  await runEach(
    open,
    async (payout) => {
      const receipt = await network.client
        .getTransactionReceipt({ hash: payout.txHash as `0x${string}` })
        .catch((error) => {
          if (error instanceof TransactionReceiptNotFoundError) return undefined;
          throw error;
        });
      if (!receipt) {
        await sendStoredPayout(network.client, payout);
        pass.resent++;
        return;
      }
      const required = BigInt(network.confirmations[payout.currency] ?? 1);
      if (tip - receipt.blockNumber + 1n < required) return;
      const outcome = await settlePayout(db, payout, {
        isSuccess: receipt.status === "success",
        blockNumber: receipt.blockNumber,
        gasUsed: receipt.gasUsed,
        feePaid: receipt.gasUsed * receipt.effectiveGasPrice,
      });
      if (outcome) pass[outcome]++;
    },
    (payout) => `payout ${payout.reference}`,
  );
  return pass;
}

async function settlePayout(
  db: Db,
  payout: StoredPayout,
  receipt: { isSuccess: boolean; blockNumber: bigint; gasUsed: bigint; feePaid: bigint },
): Promise<"confirmed" | "reverted" | undefined> {
  return inTransaction(db, async (tx) => {
    const record = await loadWithdrawal(tx, withdrawalIdOf(payout.reference), true);
    if (record?.status !== "sending" || !record.withdrawal.txid) return undefined;
    const [changed] = await tx
      .update(evmPayouts)
      .set({
        status: receipt.isSuccess ? "confirmed" : "reverted",
        blockNumber: receipt.blockNumber,
        gasUsed: receipt.gasUsed,
        feePaid: receipt.feePaid,
        settledAt: new Date(),
      })
      .where(and(eq(evmPayouts.reference, payout.reference), eq(evmPayouts.status, "signed")))
      .returning({ reference: evmPayouts.reference });
    if (!changed) return undefined;
    if (!receipt.isSuccess) {
      await revertSentWithdrawal(tx, record, `the transaction ${payout.txHash} reverted on chain`);
      return "reverted";
    }
    await transitionStatus(tx, {
      transactionId: record.id,
      kind: "withdrawal",
      to: "confirmed",
      reason: "confirmed",
    });
    return "confirmed";
  });
}
