import "server-only";

import type { Driver } from "@/lib/db/client";
import { type ChannelListener, listenOnChannel } from "@/lib/notify/listen-on-channel";

/** The channel drizzle/0047_jobs_notify.sql's trigger announces new jobs on. */
export const JOBS_CHANNEL = "kassa_jobs";

/**
 * How long a runner sleeps at most. New jobs wake it (JOBS_CHANNEL), and due times and the ends of
 * leases are awaited exactly (msUntilNextDue), so this bounds only how late an announcement lost
 * with a dropped connection, or a job moved earlier by another process, is made up for.
 */
export const IDLE_LOOK_MS = 5_000;

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
