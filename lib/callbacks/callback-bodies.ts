import "server-only";

import type { Executor } from "@/lib/db/client";

/** Builds the body of a transaction's callback from the transaction as it stands in `db`. */
export type CallbackBody = (db: Executor, transactionId: number) => Promise<unknown>;

const bodies = new Map<string, CallbackBody>();

/**
 * Names the body for callbacks of these transaction types. The read side registers its describers
 * (register-callback-bodies.ts) when a process boots, so the code that changes a status and queues
 * its callback does not import the code that describes transactions.
 */
export function registerCallbackBody(types: readonly string[], body: CallbackBody): void {
  for (const type of types) bodies.set(type, body);
}

export function callbackBodyOf(type: string): CallbackBody {
  const body = bodies.get(type);
  if (!body)
    throw new Error(
      `no callback body is registered for ${type} transactions: the process must import lib/callbacks/register-callback-bodies.ts`,
    );
  return body;
}
