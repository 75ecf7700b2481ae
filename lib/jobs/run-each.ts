import "server-only";

import { describeError } from "./describe-error";

/** Some items of a batch failed; the others were processed. The job fails, so it is retried. */
export class BatchError extends Error {
  constructor(
    readonly failures: { item: string; error: unknown }[],
    total: number,
  ) {
    const details = failures.map(({ item, error }) => `${item}: ${describeError(error)}`).join("; ");
    super(`${failures.length} of ${total} failed: ${details}`);
    this.name = "BatchError";
  }
}

/**
 * Runs `work` for every item, one after another, even when some throw: one bad item never
 * blocks the rest of its batch. Throws a BatchError naming each failure once all have been tried.
 */
export async function runEach<T>(
  items: readonly T[],
  work: (item: T) => Promise<unknown>,
  describe: (item: T) => string,
): Promise<void> {
  const failures: { item: string; error: unknown }[] = [];
  for (const item of items) {
    try {
      await work(item);
    } catch (error) {
      failures.push({ item: describe(item), error });
    }
  }
  if (failures.length > 0) throw new BatchError(failures, items.length);
}
