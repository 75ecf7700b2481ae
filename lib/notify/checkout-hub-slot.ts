import "server-only";

import { getDb, getDriver } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import type { InvoiceSettings } from "@/lib/invoices/create-invoice";
import { type CheckoutHub, createCheckoutHub } from "./checkout-hub";
import type { StreamLimits } from "./stream-admission";

/**
 * The process's one checkout hub, created with the first stream and bound to the open database
 * (a new database, after a restart of the engine or in tests, gets a new hub). On globalThis like
 * the database handle: one listening session per process whatever the bundler does.
 */
const KEY = Symbol.for("kassa.checkoutHub");
const DRAINING = Symbol.for("kassa.checkoutHub.draining");
type Slot = { [KEY]?: { driver: unknown; hub: CheckoutHub }; [DRAINING]?: boolean };

/** Seconds a browser refused while the process stops waits before it asks again (it polls meanwhile). */
const DRAIN_RETRY_SECONDS = 5;

export async function checkoutHub(input: {
  settings: InvoiceSettings;
  limits: StreamLimits;
}): Promise<CheckoutHub> {
  const slot = globalThis as Slot;
  if (slot[DRAINING]) {
    // The process is stopping: a new stream would only hold its stop up. Another process answers.
    const error = new KassaError("service_unavailable", "This server is restarting. Try again shortly.");
    error.retryAfterSeconds = DRAIN_RETRY_SECONDS;
    throw error;
  }
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

/**
 * Ends every open stream and the listening session, and refuses new streams (503, Retry-After) until
 * the engine starts again: the process is stopping (lib/host/run-engine-action.ts), and an open
 * stream would keep its requests from ever draining. Browsers fall back to polling meanwhile.
 */
export async function stopCheckoutHub(): Promise<void> {
  const slot = globalThis as Slot;
  slot[DRAINING] = true;
  const entry = slot[KEY];
  delete slot[KEY];
  await entry?.hub.stop();
}

/** The engine (re)started: streams are served again. */
export function reopenCheckoutHub(): void {
  delete (globalThis as Slot)[DRAINING];
}

/** Streams open on this process (GET /metrics). */
export function openCheckoutStreams(): number {
  return (globalThis as Slot)[KEY]?.hub.openCount() ?? 0;
}
