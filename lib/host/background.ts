import "server-only";

import type { CallbackSettings } from "@/lib/callbacks/callback-settings";
import { DEFAULT_SCHEDULE_SECONDS } from "@/lib/callbacks/deliver-callback";
import { mineDueSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import type { Config } from "@/lib/config";
import type { DatabaseHandle } from "@/lib/db/client";
import { runnerWaking } from "@/lib/jobs/job-announcements";
import { startJobRunner } from "@/lib/jobs/runner";
import { mailSettingsFor } from "@/lib/mail/mail-settings-for";
import { getSecretBox } from "@/lib/runtime";
import { callbackHandlers, jobHandlers, jobTasks, payoutAdapter } from "./job-handlers";

export type Background = { stop: () => Promise<void> };

export function callbackSettings(config: Config): CallbackSettings {
  return {
    mode: config.mode,
    timeoutMs: config.callbackTimeoutMs,
    scheduleSeconds: config.callbackScheduleSeconds ?? DEFAULT_SCHEDULE_SECONDS,
    box: getSecretBox(),
  };
}

/**
 * Background work of a process: the job runner, and in sandbox mode the automatic block timer.
 * The server runs it unless KASSA_JOBS=off; `npm run worker` runs only this.
 */
export function startBackground(
  { db, driver }: Pick<DatabaseHandle, "db" | "driver">,
  config: Config,
): Background {
  const waking = runnerWaking(driver);
  const runner = startJobRunner({
    db,
    ...waking,
    handlers: jobHandlers({
      pricing: config.pricing,
      mail: mailSettingsFor(config, getSecretBox()),
      chain: payoutAdapter({
        mode: config.mode,
        evm: config.evm,
        utxo: config.utxo,
        batchSeconds: config.payoutBatchSeconds,
        box: getSecretBox(),
      }),
    }),
    leaseSeconds: config.jobLeaseSeconds,
    stopGraceMs: config.shutdownGraceSeconds * 1000,
    // The withdrawal sweep and the purge run here; they are safe in several processes at once.
    tasks: jobTasks({
      evm: config.evm,
      utxo: config.utxo,
      mode: config.mode,
      pricing: config.pricing,
      box: getSecretBox(),
    }),
    retentionDays: config.jobRetentionDays,
  });
  const callbackRunner = startJobRunner({
    db,
    ...waking,
    handlers: callbackHandlers(callbackSettings(config)),
    concurrency: 16,
    leaseSeconds: config.jobLeaseSeconds,
    stopGraceMs: config.shutdownGraceSeconds * 1000,
  });
  let miner: NodeJS.Timeout | undefined;
  let mining: Promise<unknown> = Promise.resolve();
  if (config.isSandbox && config.sandboxBlockSeconds > 0) {
    const tickMs = Math.max(250, (config.sandboxBlockSeconds * 1000) / 4);
    miner = setInterval(() => {
      mining = mineDueSandboxBlocks(db, config.sandboxBlockSeconds).catch((error) =>
        console.error("[sandbox] block timer failed:", error instanceof Error ? error.message : error),
      );
    }, tickMs);
    miner.unref();
  }
  return {
    stop: async () => {
      if (miner) clearInterval(miner);
      await mining;
      await Promise.all([runner.stop(), callbackRunner.stop()]);
    },
  };
}
