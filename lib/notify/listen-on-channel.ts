import "server-only";

import type { Driver } from "@/lib/db/client";

export type ChannelListener = { stop: () => Promise<void> };

type Handlers = {
  onMessage: (payload: string) => void;
  /** The listening connection was lost and is back: announcements in between are lost, look again. */
  onGap: () => void;
};

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;

/**
 * Listens on one NOTIFY channel. PGlite delivers NOTIFY to its own session (every change of the
 * process goes through it), after the notifying transaction commits, as PostgreSQL does. On
 * PostgreSQL a dedicated connection outside the pool (a pooled one would be handed to queries and
 * lose its LISTEN), reconnected with backoff when it drops, after which `onGap` says to look again.
 */
export async function listenOnChannel(
  driver: Driver,
  channel: string,
  handlers: Handlers,
): Promise<ChannelListener> {
  if (driver.kind === "pglite") {
    const unlisten = await driver.client.listen(channel, (payload) => handlers.onMessage(payload ?? ""));
    return {
      stop: async () => {
        if (!driver.client.closed) await unlisten();
      },
    };
  }
  const { default: pg } = await import("pg");
  let isStopped = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = RETRY_FIRST_MS;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: driver.pool.options.connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    next.on("notification", (message) => {
      if (message.channel === channel) handlers.onMessage(message.payload ?? "");
    });
    next.on("error", (error) => {
      console.error(`[notify] listening connection on ${channel} lost:`, error.message);
      void next.end().catch(() => {});
    });
    next.on("end", () => {
      if (client !== next || isStopped) return;
      client = undefined;
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`listen ${channel}`);
    client = next;
    delay = RETRY_FIRST_MS;
  };
  const scheduleReconnect = () => {
    retry = setTimeout(async () => {
      try {
        await connect();
        handlers.onGap();
      } catch (error) {
        console.error(`[notify] cannot listen on ${channel} again yet:`, (error as Error).message);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
        if (!isStopped) scheduleReconnect();
      }
    }, delay);
    retry.unref();
  };
  await connect();
  return {
    stop: async () => {
      isStopped = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
