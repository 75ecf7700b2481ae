import "server-only";

import { and, eq } from "drizzle-orm";
import { TransactionReceiptNotFoundError } from "viem";
import type { Db } from "@/lib/db/client";
import { evmSweeps } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { runEach } from "@/lib/jobs/run-each";
import type { EvmNetwork } from "../evm-network";
import { sendStoredPayout } from "../payout/send-stored-payout";
import { bookChainGas } from "./book-chain-gas";

export type SweepPass = { confirmed: number; reverted: number; resent: number };

/**
 * Follows the network's open sweeps: not yet mined, the stored bytes are sent again; mined with the
 * required confirmations, the sweep becomes `confirmed` (or `reverted`) with the fee it really paid,
 * and that gas is booked (book-chain-gas.ts) in the same transaction, once: only a `signed` sweep
 * is settled.
 */
export async function trackEvmSweeps(db: Db, input: { network: EvmNetwork }): Promise<SweepPass> {
  const { network } = input;
  const pass: SweepPass = { confirmed: 0, reverted: 0, resent: 0 };
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
      const receipt = await network.client
        .getTransactionReceipt({ hash: sweep.txHash as `0x${string}` })
        .catch((error) => {
          if (error instanceof TransactionReceiptNotFoundError) return undefined;
          throw error;
        });
      if (!receipt) {
        await sendStoredPayout(network.client, sweep);
        pass.resent++;
        return;
      }
      const required = BigInt(network.confirmations[sweep.currency] ?? 1);
      if (tip - receipt.blockNumber + 1n < required) return;
      const isSuccess = receipt.status === "success";
      const feePaid = receipt.gasUsed * receipt.effectiveGasPrice;
      const settled = await inTransaction(db, async (tx) => {
        const [changed] = await tx
          .update(evmSweeps)
          .set({
            status: isSuccess ? "confirmed" : "reverted",
            blockNumber: receipt.blockNumber,
            feePaid,
            settledAt: new Date(),
          })
          .where(and(eq(evmSweeps.id, sweep.id), eq(evmSweeps.status, "signed")))
          .returning({ id: evmSweeps.id });
        if (!changed) return false;
        await bookChainGas(tx, {
          feePaidWei: feePaid,
          kind: "sweep_gas",
          memo: `Sweep ${sweep.id} of ${sweep.currency} from ${sweep.fromAddress}: ${sweep.txHash}`,
        });
        return true;
      });
      if (settled) pass[isSuccess ? "confirmed" : "reverted"]++;
    },
    (sweep) => `sweep ${sweep.id}`,
  );
  return pass;
}
