import "server-only";

/**
 * Runs `attempt` until it succeeds, waiting longer after each failure (exponential backoff from
 * `baseDelayMs`, at most `maxDelayMs`); throws the last error after `attempts` tries. For RPC calls
 * that fail transiently (timeouts, a node restarting, rate limits).
 */
export async function retryRpcCall<T>(
  attempt: () => Promise<T>,
  options: { attempts: number; baseDelayMs: number; maxDelayMs?: number },
): Promise<T> {
  let lastError: unknown;
  for (let tried = 0; tried < options.attempts; tried++) {
    try {
      return await attempt();
    } catch (error) {
      lastError = error;
      if (tried + 1 === options.attempts) break;
      const delay = Math.min(options.maxDelayMs ?? 30_000, options.baseDelayMs * 2 ** tried);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  throw lastError;
}
