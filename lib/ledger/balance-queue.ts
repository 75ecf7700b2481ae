import "server-only";

/**
 * How many writes debiting one merchant balance a process lets into the database at once: one holding
 * the balance row's lock until its commit, one already waiting behind it, so the row never idles
 * between two of them. The rest wait here, in arrival order.
 */
export const BALANCE_WRITERS = 2;

type Queue = { active: number; waiting: (() => void)[] };

/** One queue per merchant balance with writes in flight; a balance without any has none. */
const queues = new Map<string, Queue>();

/**
 * Runs `work`, a write that debits the merchant's balance in `currency` (a withdrawal, an exchange),
 * once fewer than BALANCE_WRITERS of this process's writes to that balance are in flight.
 *
 * A debit locks the balance row until it commits (kassa_post_journals, drizzle/0010), so a burst of
 * one merchant's debits runs one at a time whatever waits where. Waiting in PostgreSQL, each would hold
 * a pooled connection while it waits, and enough of them hold all of them: every other request, of
 * every merchant, then waits for the burst. PostgreSQL also wakes a row's waiters in no set order,
 * which made the slowest of them wait several turns (docs/BENCHMARKS.md, "One balance, two writers").
 * Waiting here, a burst holds two connections and is served first come, first served.
 *
 * Per process: with several app instances each lets its own two in; the row lock still decides, so
 * correctness never depended on this queue. `work` must not queue for the same balance again.
 */
export async function inBalanceQueue<T>(
  merchantId: number,
  currency: string,
  work: () => Promise<T>,
): Promise<T> {
  const key = `${merchantId}:${currency}`;
  let queue = queues.get(key);
  if (!queue) {
    queue = { active: 0, waiting: [] };
    queues.set(key, queue);
  }
  if (queue.active < BALANCE_WRITERS) queue.active++;
  // The writer that finishes hands its place on without giving it up (below), so none overtakes.
  else await new Promise<void>((resolve) => queue.waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = queue.waiting.shift();
    if (next) next();
    else if (--queue.active === 0) queues.delete(key);
  }
}

/** How many balances have writes in flight or waiting in this process (for tests). */
export function balanceQueueCount(): number {
  return queues.size;
}
