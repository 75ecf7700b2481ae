import { type CallbackSettings, deliverCallback } from "@/lib/callbacks/deliver-callback";
import { CALLBACK_QUEUE } from "@/lib/callbacks/queue-callback";
import type { ChainAdapter } from "@/lib/chain/adapter";
import { CHAIN_SCAN_QUEUE } from "@/lib/chain/sandbox/mine-blocks";
import { sandboxAdapter } from "@/lib/chain/sandbox/sandbox-adapter";
import { inTransaction } from "@/lib/db/transaction";
import { scanConfirmations } from "@/lib/deposits/scan-confirmations";
import { INVOICE_EXPIRY_QUEUE } from "@/lib/invoices/create-invoice";
import { expireInvoiceIn } from "@/lib/invoices/settle-invoice";
import { EMAIL_QUEUE } from "@/lib/mail/queue-email";
import { type MailSettings, sendQueuedEmail } from "@/lib/mail/send-email";
import { WITHDRAWAL_BROADCAST_QUEUE } from "@/lib/withdrawals/create-withdrawal";
import { broadcastWithdrawal, confirmWithdrawals } from "@/lib/withdrawals/process-withdrawal";
import { sweepWithdrawalClaims } from "@/lib/withdrawals/sweep-withdrawals";
import { runEach } from "./run-each";
import type { Handlers, PeriodicTask } from "./runner";

export type JobSettings = {
  spreadPpm: number;
  mail: MailSettings;
  /** The network payouts go to; the sandbox chain unless given. */
  chain?: ChainAdapter;
};

/** Callback delivery runs in its own pool, so slow merchant endpoints cannot hold up other work. */
export function callbackHandlers(settings: CallbackSettings): Handlers {
  return {
    [CALLBACK_QUEUE]: async (job, db) => {
      await deliverCallback(db, Number(job.payload.callbackId), settings);
    },
  };
}

/** Every queue Kassa's background work uses, and what runs it. */
export function jobHandlers(settings: JobSettings): Handlers {
  return {
    [INVOICE_EXPIRY_QUEUE]: async (job, db, { clock }) => {
      await inTransaction(db, (tx) => expireInvoiceIn(tx, Number(job.payload.invoiceId), clock));
    },
    [CHAIN_SCAN_QUEUE]: async (job, db, { clock }) => {
      const currency = String(job.payload.currency);
      // Withdrawal confirmations do not wait on deposit crediting: both run, and the job fails
      // (and is retried) if either did.
      const steps = [
        {
          name: "deposits",
          run: () => scanConfirmations(db, { currency, spreadPpm: settings.spreadPpm, clock }),
        },
        { name: "withdrawals", run: () => confirmWithdrawals(db, currency) },
      ];
      await runEach(
        steps,
        (step) => step.run(),
        (step) => `${currency} ${step.name}`,
      );
    },
    [WITHDRAWAL_BROADCAST_QUEUE]: async (job, db, { signal }) => {
      await broadcastWithdrawal(db, {
        withdrawalId: Number(job.payload.withdrawalId),
        adapter: settings.chain ?? sandboxAdapter,
        signal,
      });
    },
    [EMAIL_QUEUE]: async (job, db) => {
      await sendQueuedEmail(db, Number(job.payload.emailId), settings.mail);
    },
  };
}

/** What the job runner repeats on a timer besides claiming jobs. */
export function jobTasks(): PeriodicTask[] {
  return [{ name: "withdrawal sweep", everyMs: 60_000, run: (db) => sweepWithdrawalClaims(db) }];
}
