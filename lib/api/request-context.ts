import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Per-request facts the custom server knows before Next.js does: the raw body bytes (buffered
 * with a size cap, including the body of GET /transactions/info, which the App Router drops), the
 * request id and the connection's peer address. The store is the one contract between the custom server and the engine: the
 * server (server/request-context.ts) runs outside Next's bundle and imports no code from lib/, so
 * the store lives on globalThis under a key both sides name.
 */
export type RequestContext = {
  requestId: string;
  rawBody?: Buffer;
  bodyTooLarge?: boolean;
  /** The connection's peer address: sign-in limits, API key allowlists and the audit trail read it (lib/auth/client-address.ts). */
  peerAddress?: string;
};

const KEY = Symbol.for("kassa.requestContext");
type Slot = { [KEY]?: AsyncLocalStorage<RequestContext> };

export function requestContextStorage(): AsyncLocalStorage<RequestContext> {
  const slot = globalThis as Slot;
  slot[KEY] ??= new AsyncLocalStorage<RequestContext>();
  return slot[KEY];
}

export function currentRequestContext(): RequestContext | undefined {
  return requestContextStorage().getStore();
}
