import { AsyncLocalStorage } from "node:async_hooks";
import type { RequestContext } from "@/lib/api/request-context";

/**
 * The server's side of the one contract it has with the engine: per-request facts the server knows
 * before any route handler runs (the request id, and the raw body it buffered, which for a GET with
 * a body Next.js would drop). The store lives on globalThis under the key lib/api/request-context.ts
 * reads, because the server (tsx, outside Next's bundle) and the handlers (bundled by Next) never
 * share a module; only the type is imported from lib/.
 */
const KEY = Symbol.for("kassa.requestContext");
type Slot = { [KEY]?: AsyncLocalStorage<RequestContext> };

export function requestContextStorage(): AsyncLocalStorage<RequestContext> {
  const slot = globalThis as Slot;
  slot[KEY] ??= new AsyncLocalStorage<RequestContext>();
  return slot[KEY];
}
