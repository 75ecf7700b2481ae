import "server-only";

import { loadAccountKeys } from "@/lib/chain/load-account-keys";
import type { EvmConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { PeriodicTask } from "@/lib/jobs/runner";
import { evmNetworkOnce } from "../evm-network";
import { hotWalletAddress } from "../payout/hot-wallet";
import { type Reconciliation, reconcileEvmChain } from "./reconcile-evm-chain";

/** What an operator must hear about: each currency's unexplained difference (empty when all agree). */
function mismatchOf(result: Reconciliation): string {
  return Object.entries(result.currencies)
    .filter(([, c]) => !c.is_reconciled)
    .map(([currency, c]) => `${currency} ${c.unexplained}`)
    .join(", ");
}

/**
 * Reconciliation as a periodic task of the job runner: a mismatch is logged loudly (console.error,
 * with the whole comparison) once when it appears and again only when it changes, and the return to
 * agreement is logged once; a pass that finds what the last one found says nothing. A mismatch must
 * be seen on two passes in a row before it is reported, so a payout settled between the database
 * snapshot and the node's answers is not taken for money gone missing.
 */
export function evmReconcileTask(input: {
  config: EvmConfig;
  box: SecretBox;
  everyMs?: number;
}): PeriodicTask {
  const network = evmNetworkOnce(input.config);
  let previous = "";
  let reported = "";
  return {
    name: "evm reconciliation",
    everyMs: input.everyMs ?? 60_000,
    run: async (db) => {
      let result: Reconciliation;
      try {
        const connected = await network.get();
        const hotWallet = hotWalletAddress(await loadAccountKeys(db, input.box));
        result = await reconcileEvmChain(db, { network: connected, hotWallet });
      } catch (error) {
        network.forget();
        throw error;
      }
      const mismatch = mismatchOf(result);
      const isSteady = mismatch === previous;
      previous = mismatch;
      if (!isSteady || mismatch === reported) return { reconciled: result.is_reconciled ? 1 : 0 };
      if (mismatch === "")
        console.log(
          `[chain] reconciliation: on-chain holdings match the ledger again (block ${result.block})`,
        );
      else
        console.error(
          `[chain] RECONCILIATION MISMATCH on ${result.network} at block ${result.block}: unexplained ${mismatch}; ` +
            `run \`npm run --silent cli -- chain reconcile --json\`. ${JSON.stringify(result.currencies)}`,
        );
      reported = mismatch;
      return { reconciled: result.is_reconciled ? 1 : 0 };
    },
  };
}
