import "server-only";

import { and, eq } from "drizzle-orm";
import { bookChainFee } from "@/lib/chain/book-chain-fee";
import type { Db, Tx } from "@/lib/db/client";
import { evmPayouts, withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { runEach } from "@/lib/jobs/run-each";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { bookNetworkFee } from "@/lib/withdrawals/book-network-fee";
import { loadWithdrawal } from "@/lib/withdrawals/load-withdrawal";
import { revertSentWithdrawal } from "@/lib/withdrawals/settle-withdrawal";
import { withdrawalIdOf } from "@/lib/withdrawals/withdrawal-reference";
import type { EvmNetwork } from "../evm-network";
import { findMinedAttempt } from "../find-mined-attempt";
import { pushUnmined } from "../push-unmined";
import { type PayoutReplacement, replaceStuckPayout } from "./replace-stuck-payout";
import type { StoredPayout } from "./store-signed-payout";
import { weiToLedgerUnits } from "./wei-to-ledger-units";

export type PayoutPass = { confirmed: number; reverted: number; resent: number; replaced: number };

/**
 * Why each payout was last not replaced, as logged: a payout held under the fee ceiling is looked at
 * every pass, and the operator needs the line once per payout and reason, not once a pass. Per
 * process (each worker says it once); forgotten once the payout is replaced or mined.
 */
const notReplacedLogged = new Map<string, string>();

type MinedPayout = {
  hash: string;
  isSuccess: boolean;
  blockNumber: bigint;
  gasUsed: bigint;
  feePaid: bigint;
};

/**
 * Follows the hot wallet's open payouts to the configured confirmations: every attempt looked up,
 * resent or replaced with higher fees when unmined, confirmed with the fee really paid booked, or
 * refunded when reverted; only from `signed` under the withdrawal's row lock.
 * docs/decisions/payout-tracking.md.
 */
export async function trackEvmPayouts(
  db: Db,
  input: { network: EvmNetwork; replacement?: PayoutReplacement },
): Promise<PayoutPass> {
  const { network, replacement } = input;
  const open = await db
    .select()
    .from(evmPayouts)
    .where(and(eq(evmPayouts.network, network.network), eq(evmPayouts.status, "signed")))
    .orderBy(evmPayouts.nonce);
  const pass: PayoutPass = { confirmed: 0, reverted: 0, resent: 0, replaced: 0 };
  if (open.length === 0) return pass;
  const tip = await network.client.getBlockNumber({ cacheTime: 0 });
  await runEach(
    open,
    async (payout) => {
      const mined = await findMinedPayout(network, payout);
      if (!mined) {
        const pushed = await pushUnmined({
          network,
          stored: payout,
          label: `payout ${payout.reference}`,
          key: payout.reference,
          notReplaced: notReplacedLogged,
          replacement,
          replace: (policy) => replaceStuckPayout(db, { network, payout, replacement: policy }),
        });
        pass[pushed]++;
        return;
      }
      notReplacedLogged.delete(payout.reference);
      const required = BigInt(network.confirmations[payout.currency] ?? 1);
      if (tip - mined.blockNumber + 1n < required) return;
      const outcome = payout.reference.startsWith("sweep-gas:")
        ? await settleGasTopUp(db, payout, mined)
        : await settlePayout(db, payout, mined);
      if (outcome) pass[outcome]++;
    },
    (payout) => `payout ${payout.reference}`,
  );
  return pass;
}

/** Whichever of the payout's attempts was mined, as the settlement books it. */
async function findMinedPayout(network: EvmNetwork, payout: StoredPayout): Promise<MinedPayout | undefined> {
  const mined = await findMinedAttempt(network, [payout.txHash, ...payout.replacedHashes]);
  if (!mined) return undefined;
  const { hash, receipt } = mined;
  return {
    hash,
    isSuccess: receipt.status === "success",
    blockNumber: receipt.blockNumber,
    gasUsed: receipt.gasUsed,
    feePaid: receipt.gasUsed * receipt.effectiveGasPrice,
  };
}

/** Records the mined attempt on a payout still `signed`; false when another tracker settled it first. */
async function recordMined(tx: Tx, payout: StoredPayout, mined: MinedPayout): Promise<boolean> {
  const [changed] = await tx
    .update(evmPayouts)
    .set({
      status: mined.isSuccess ? "confirmed" : "reverted",
      txHash: mined.hash,
      blockNumber: mined.blockNumber,
      gasUsed: mined.gasUsed,
      feePaid: mined.feePaid,
      settledAt: new Date(),
    })
    .where(and(eq(evmPayouts.reference, payout.reference), eq(evmPayouts.status, "signed")))
    .returning({ reference: evmPayouts.reference });
  return changed !== undefined;
}

/**
 * A gas top-up for a token sweep (lib/chain/evm/sweep) is Kassa paying itself: no withdrawal, no
 * merchant; once mined only its gas is booked, with the status change.
 */
async function settleGasTopUp(
  db: Db,
  payout: StoredPayout,
  mined: MinedPayout,
): Promise<"confirmed" | "reverted" | undefined> {
  return inTransaction(db, async (tx) => {
    if (!(await recordMined(tx, payout, mined))) return undefined;
    await bookChainFee(tx, {
      paid: weiToLedgerUnits(mined.feePaid),
      currency: "ETH",
      kind: "sweep_gas",
      memo: `Gas top-up ${payout.reference} to ${payout.toAddress}: ${mined.hash}`,
    });
    return mined.isSuccess ? "confirmed" : "reverted";
  });
}

async function settlePayout(
  db: Db,
  payout: StoredPayout,
  mined: MinedPayout,
): Promise<"confirmed" | "reverted" | undefined> {
  return inTransaction(db, async (tx) => {
    const record = await loadWithdrawal(tx, withdrawalIdOf(payout.reference), true);
    if (record?.status !== "sending" || !record.withdrawal.txid) return undefined;
    if (!(await recordMined(tx, payout, mined))) return undefined;
    if (record.withdrawal.txid !== mined.hash) {
      // A replacement (or the attempt it replaced) was mined: the merchant sees the hash on chain.
      await tx.update(withdrawals).set({ txid: mined.hash }).where(eq(withdrawals.transactionId, record.id));
      record.withdrawal.txid = mined.hash;
    }
    await bookNetworkFee(tx, {
      record,
      paid: weiToLedgerUnits(mined.feePaid),
      paidCurrency: "ETH",
      isCharged: mined.isSuccess,
    });
    if (!mined.isSuccess) {
      await revertSentWithdrawal(tx, record, `the transaction ${mined.hash} reverted on chain`);
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
