import "server-only";

import type { Driver } from "@/lib/db/client";
import { type ChannelListener, listenOnChannel } from "@/lib/notify/listen-on-channel";

/** The channel drizzle/0047_jobs_notify.sql's trigger announces new jobs on. */
export const JOBS_CHANNEL = "kassa_jobs";

/**
 * On the embedded database new jobs wake the runners (JOBS_CHANNEL), and due times and the ends of
 * leases are awaited exactly (msUntilNextDue), so a runner looks on its own only every 5 s. On
 * PostgreSQL jobs are not announced (drizzle/0047_jobs_notify.sql says why) and runners look every
 * 250 ms, for jobs queued by any process.
 */
export function runnerWaking(driver: Driver): {
  idleMs: number;
  wakeOn?: ReturnType<typeof jobAnnouncements>;
} {
  return driver.kind === "pglite" ? { idleMs: 5_000, wakeOn: jobAnnouncements(driver) } : { idleMs: 250 };
}

/** One listener on JOBS_CHANNEL for all of a process's runners. */
export function jobAnnouncements(driver: Driver) {
  const wakes = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of wakes) wake();
  };
  let listener: Promise<ChannelListener> | undefined;
  return async (wake: () => void) => {
    wakes.add(wake);
    listener ??= listenOnChannel(driver, JOBS_CHANNEL, { onMessage: wakeAll, onGap: wakeAll });
    const listening = await listener;
    return {
      stop: async () => {
        wakes.delete(wake);
        if (wakes.size > 0) return;
        listener = undefined;
        await listening.stop();
      },
    };
  };
}
