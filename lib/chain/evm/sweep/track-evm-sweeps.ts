import "server-only";

import { and, eq } from "drizzle-orm";
import { bookChainFee } from "@/lib/chain/book-chain-fee";
import type { Db } from "@/lib/db/client";
import { evmSweeps } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { runEach } from "@/lib/jobs/run-each";
import type { EvmNetwork } from "../evm-network";
import { findMinedAttempt } from "../find-mined-attempt";
import { weiToLedgerUnits } from "../payout/wei-to-ledger-units";
import { pushUnmined } from "../push-unmined";
import { replaceStuckSweep, type SweepReplacement } from "./replace-stuck-sweep";

export type SweepPass = { confirmed: number; reverted: number; resent: number; replaced: number };

/** Why each sweep was last not replaced, as logged: once per sweep and reason, not once a pass (per process). */
const notReplacedLogged = new Map<number, string>();

/**
 * Follows the network's open sweeps: unmined ones are resent, or replaced past the threshold
 * (replace-stuck-sweep.ts); once mined with enough confirmations (any attempt) the sweep becomes
 * `confirmed` or `reverted` with that attempt's hash, amount and real fee, and its gas is booked
 * (lib/chain/book-chain-fee.ts) in the same transaction, once: only a `signed` sweep is settled.
 */
export async function trackEvmSweeps(
  db: Db,
  input: { network: EvmNetwork; replacement?: SweepReplacement },
): Promise<SweepPass> {
  const { network, replacement } = input;
  const pass: SweepPass = { confirmed: 0, reverted: 0, resent: 0, replaced: 0 };
  const open = await db
    .select()
    .from(evmSweeps)
    .where(and(eq(evmSweeps.network, network.network), eq(evmSweeps.status, "signed")))
    .orderBy(evmSweeps.id);
  if (open.length === 0) return pass;
  const tip = await network.client.getBlockNumber({ cacheTime: 0 });
  await runEach(
    open,
    async (sweep) => {
      const mined = await findMinedAttempt(network, [sweep.txHash, ...sweep.replacedHashes]);
      if (!mined) {
        const pushed = await pushUnmined({
          network,
          stored: sweep,
          label: `sweep ${sweep.id}`,
          key: sweep.id,
          notReplaced: notReplacedLogged,
          replacement,
          replace: (policy) => replaceStuckSweep(db, { network, sweep, replacement: policy }),
        });
        pass[pushed]++;
        return;
      }
      notReplacedLogged.delete(sweep.id);
      const { receipt } = mined;
      // An earlier attempt of an ETH sweep sent a larger amount (a replacement pays more gas from it).
      const baseAmount =
        mined.hash === sweep.txHash || sweep.currency !== "ETH"
          ? sweep.baseAmount
          : (await network.client.getTransaction({ hash: mined.hash as `0x${string}` })).value;
      const required = BigInt(network.confirmations[sweep.currency] ?? 1);
      if (tip - receipt.blockNumber + 1n < required) return;
      const isSuccess = receipt.status === "success";
      const feePaid = receipt.gasUsed * receipt.effectiveGasPrice;
      const settled = await inTransaction(db, async (tx) => {
        const [changed] = await tx
          .update(evmSweeps)
          .set({
            status: isSuccess ? "confirmed" : "reverted",
            txHash: mined.hash,
            baseAmount,
            blockNumber: receipt.blockNumber,
            feePaid,
            settledAt: new Date(),
          })
          .where(and(eq(evmSweeps.id, sweep.id), eq(evmSweeps.status, "signed")))
          .returning({ id: evmSweeps.id });
        if (!changed) return false;
        await bookChainFee(tx, {
          paid: weiToLedgerUnits(feePaid),
          currency: "ETH",
          kind: "sweep_gas",
          memo: `Sweep ${sweep.id} of ${sweep.currency} from ${sweep.fromAddress}: ${mined.hash}`,
        });
        return true;
      });
      if (settled) pass[isSuccess ? "confirmed" : "reverted"]++;
    },
    (sweep) => `sweep ${sweep.id}`,
  );
  return pass;
}
