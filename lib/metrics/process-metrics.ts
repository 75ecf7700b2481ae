import "server-only";

import { collectDefaultMetrics, Registry } from "prom-client";

const KEY = Symbol.for("kassa.processMetrics");
type Slot = { [KEY]?: Registry };

/**
 * This process's own health, as prom-client's default collectors report it: resident memory, heap
 * spaces, garbage collection, event-loop lag, open handles. Registered once per process (the GC and
 * event-loop collectors hook into Node and must not be doubled), on globalThis like the database
 * handle, and merged into every scrape (lib/metrics/collect-metrics.ts).
 */
export function processMetrics(): Registry {
  const slot = globalThis as Slot;
  if (!slot[KEY]) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    slot[KEY] = registry;
  }
  return slot[KEY];
}
