import "server-only";

import { getDb, getDriver } from "@/lib/db/client";
import type { InvoiceSettings } from "@/lib/invoices/create-invoice";
import { type CheckoutHub, createCheckoutHub } from "./checkout-hub";
import type { StreamLimits } from "./stream-admission";

/**
 * The process's one checkout hub, created with the first stream and bound to the open database
 * (a new database, after a restart of the engine or in tests, gets a new hub). On globalThis like
 * the database handle: one listening session per process whatever the bundler does.
 */
const KEY = Symbol.for("kassa.checkoutHub");
type Slot = { [KEY]?: { driver: unknown; hub: CheckoutHub } };

export async function checkoutHub(input: {
  settings: InvoiceSettings;
  limits: StreamLimits;
}): Promise<CheckoutHub> {
  const slot = globalThis as Slot;
  const driver = getDriver();
  let entry = slot[KEY];
  if (entry?.driver !== driver) {
    if (entry) void entry.hub.stop();
    entry = { driver, hub: createCheckoutHub({ driver, db: getDb(), ...input }) };
    slot[KEY] = entry;
  }
  const { hub } = entry;
  try {
    await hub.ready;
  } catch (error) {
    // Not listening (the database refused the session): the next stream tries a new hub.
    if (slot[KEY]?.hub === hub) delete slot[KEY];
    throw error;
  }
  return hub;
}

/** Ends every open stream and the listening session: the engine stops (lib/server/run-engine-action.ts). */
export async function stopCheckoutHub(): Promise<void> {
  const slot = globalThis as Slot;
  const entry = slot[KEY];
  delete slot[KEY];
  await entry?.hub.stop();
}

/** Streams open on this process (GET /metrics). */
export function openCheckoutStreams(): number {
  return (globalThis as Slot)[KEY]?.hub.openCount() ?? 0;
}
