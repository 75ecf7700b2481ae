import "server-only";

import type { CallbackSettings } from "@/lib/callbacks/callback-settings";
import { deliverCallback } from "@/lib/callbacks/deliver-callback";
import type { ChainAdapter } from "@/lib/chain/adapter";
import { EVM_CURRENCIES } from "@/lib/chain/evm/evm-network";
import { evmWatcherTask } from "@/lib/chain/evm/evm-watcher-task";
import { evmPayoutAdapterFor } from "@/lib/chain/evm/payout/evm-payout-adapter-for";
import { evmPayoutTask } from "@/lib/chain/evm/payout/evm-payout-task";
import { evmReconcileTask } from "@/lib/chain/evm/reconcile/evm-reconcile-task";
import { evmSweepTask } from "@/lib/chain/evm/sweep/evm-sweep-task";
import { routeAdapters } from "@/lib/chain/route-adapters";
import { sandboxAdapter } from "@/lib/chain/sandbox/sandbox-adapter";
import { utxoConsolidationTask } from "@/lib/chain/utxo/payout/utxo-consolidation-task";
import { utxoPayoutAdapterFor } from "@/lib/chain/utxo/payout/utxo-payout-adapter-for";
import { utxoPayoutTask } from "@/lib/chain/utxo/payout/utxo-payout-task";
import { utxoWatcherTask } from "@/lib/chain/utxo/utxo-watcher-task";
import type { Config, EvmConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { inTransaction } from "@/lib/db/transaction";
import { scanConfirmations } from "@/lib/deposits/scan-confirmations";
import { settleExchange } from "@/lib/exchanges/settle-exchange";
import { pruneIdempotencyKeys } from "@/lib/idempotency/prune-idempotency-keys";
import { expireInvoice } from "@/lib/invoices/expire-invoice";
import { repriceInvoiceJob } from "@/lib/invoices/reprice-invoice";
import {
  CALLBACK_QUEUE,
  CHAIN_SCAN_QUEUE,
  EMAIL_QUEUE,
  EXCHANGE_SETTLE_QUEUE,
  INVOICE_EXPIRY_QUEUE,
  INVOICE_REPRICE_QUEUE,
  REFUND_EXPIRY_QUEUE,
  WITHDRAWAL_APPROVAL_EXPIRY_QUEUE,
  WITHDRAWAL_BROADCAST_QUEUE,
} from "@/lib/jobs/queues";
import { runEach } from "@/lib/jobs/run-each";
import type { Handlers, PeriodicTask } from "@/lib/jobs/runner";
import { type MailSettings, sendQueuedEmail } from "@/lib/mail/send-email";
import type { Pricing } from "@/lib/rates/pricing";
import { expireRefund } from "@/lib/refunds/expire-refund";
import { expireWithdrawalApproval } from "@/lib/withdrawals/expire-withdrawal-approval";
import { broadcastWithdrawal, confirmWithdrawals } from "@/lib/withdrawals/process-withdrawal";
import { sweepWithdrawalClaims } from "@/lib/withdrawals/sweep-withdrawals";

export type JobSettings = {
  pricing: Pricing;
  mail: MailSettings;
  /** The network payouts go to (payoutAdapter); the sandbox chain unless given (tests). */
  chain?: ChainAdapter;
};

/**
 * The network each withdrawal pays out on: ETH, USDTE and USDC from the EVM hot wallet when a node
 * is configured, BTC and LTC from Kassa's coins on their nodes when configured; other currencies on
 * the sandbox chain in sandbox mode, and nowhere in production.
 */
export function payoutAdapter(input: {
  mode: "sandbox" | "production";
  evm: EvmConfig | undefined;
  utxo?: Config["utxo"];
  /** KASSA_PAYOUT_BATCH_SECONDS for the UTXO chains. */
  batchSeconds?: number;
  box: SecretBox;
}): ChainAdapter {
  const real: Record<string, ChainAdapter> = {};
  if (input.evm) {
    const evm = evmPayoutAdapterFor({ config: input.evm, box: input.box });
    for (const code of EVM_CURRENCIES) real[code] = evm;
  }
  for (const currency of ["BTC", "LTC"] as const) {
    const config = input.utxo?.[currency];
    if (config)
      real[currency] = utxoPayoutAdapterFor({
        currency,
        config,
        mode: input.mode,
        box: input.box,
        batchSeconds: input.batchSeconds,
      });
  }
  return routeAdapters({ mode: input.mode, sandbox: sandboxAdapter, real });
}

/** Callback delivery runs in its own pool, so slow merchant endpoints cannot hold up other work. */
export function callbackHandlers(settings: CallbackSettings): Handlers {
  return {
    [CALLBACK_QUEUE]: async (job, db) => {
      await deliverCallback(
        db,
        {
          callbackId: Number(job.payload.callbackId),
          version: Number(job.payload.version ?? 0),
          isManual: job.payload.isManual === true,
        },
        settings,
      );
    },
  };
}

/**
 * What runs each queue of lib/jobs/queues.ts. It lives with the process wiring, not in lib/jobs, so
 * the job runner knows no domain folder and each domain knows only the queue names it enqueues to.
 */
export function jobHandlers(settings: JobSettings): Handlers {
  return {
    [INVOICE_EXPIRY_QUEUE]: async (job, db, { clock }) => {
      await inTransaction(db, (tx) => expireInvoice(tx, Number(job.payload.invoiceId), clock));
    },
    [INVOICE_REPRICE_QUEUE]: async (job, db, { clock }) => {
      await repriceInvoiceJob(db, {
        invoiceId: Number(job.payload.invoiceId),
        // The lock length the job was scheduled with: its run time was computed from it.
        pricing: { ...settings.pricing, rateLockSeconds: Number(job.payload.lockSeconds) },
        clock,
      });
    },
    [CHAIN_SCAN_QUEUE]: async (job, db, { clock }) => {
      const currency = String(job.payload.currency);
      // Withdrawal confirmations do not wait on deposit crediting: both run, and the job fails
      // (and is retried) if either did.
      const steps = [
        {
          name: "deposits",
          run: () => scanConfirmations(db, { currency, pricing: settings.pricing, clock }),
        },
        { name: "withdrawals", run: () => confirmWithdrawals(db, currency) },
      ];
      await runEach(
        steps,
        (step) => step.run(),
        (step) => `${currency} ${step.name}`,
      );
    },
    [WITHDRAWAL_BROADCAST_QUEUE]: async (job, db, { signal, clock }) => {
      await broadcastWithdrawal(db, {
        withdrawalId: Number(job.payload.withdrawalId),
        adapter: settings.chain ?? sandboxAdapter,
        signal,
        clock,
      });
    },
    [WITHDRAWAL_APPROVAL_EXPIRY_QUEUE]: async (job, db, { clock }) => {
      await expireWithdrawalApproval(db, { withdrawalId: Number(job.payload.withdrawalId), clock });
    },
    [REFUND_EXPIRY_QUEUE]: async (job, db, { clock }) => {
      await expireRefund(db, { refundId: Number(job.payload.refundId), clock });
    },
    [EMAIL_QUEUE]: async (job, db) => {
      await sendQueuedEmail(db, Number(job.payload.emailId), settings.mail);
    },
    [EXCHANGE_SETTLE_QUEUE]: async (job, db) => {
      await inTransaction(db, (tx) => settleExchange(tx, Number(job.payload.transactionId)));
    },
  };
}

/** What the job runner repeats on a timer besides claiming jobs; each real chain's watcher when its node is configured. */
export function jobTasks(options: {
  evm?: EvmConfig;
  utxo?: Config["utxo"];
  mode?: Config["mode"];
  pricing: Pricing;
  box?: SecretBox;
}): PeriodicTask[] {
  const tasks: PeriodicTask[] = [
    { name: "withdrawal sweep", everyMs: 60_000, run: (db) => sweepWithdrawalClaims(db) },
    { name: "prune idempotency keys", everyMs: 10 * 60_000, run: (db) => pruneIdempotencyKeys(db) },
  ];
  if (options.evm)
    tasks.push(
      evmWatcherTask({ config: options.evm, pricing: options.pricing }),
      evmPayoutTask({ config: options.evm, box: options.box }),
    );
  for (const currency of ["BTC", "LTC"] as const) {
    const config = options.utxo?.[currency];
    if (config)
      tasks.push(
        utxoWatcherTask({
          currency,
          config,
          mode: options.mode ?? "production",
          pricing: options.pricing,
          box: options.box,
        }),
        utxoPayoutTask({ currency, config, mode: options.mode ?? "production", box: options.box }),
        ...(options.box
          ? [
              utxoConsolidationTask({
                currency,
                config,
                mode: options.mode ?? "production",
                box: options.box,
              }),
            ]
          : []),
      );
  }
  if (options.evm && options.box)
    tasks.push(
      evmSweepTask({ config: options.evm, box: options.box }),
      evmReconcileTask({ config: options.evm, box: options.box }),
    );
  return tasks;
}
