/**
 * Waits until `check` returns something other than undefined, null or false, and returns it. A
 * test waits on the condition it needs, never for a guessed duration: fast when the machine is
 * fast, and on a slow one it fails after `timeoutMs` saying what it waited for (with the last
 * value seen, or the last error `check` threw) instead of asserting too early.
 */
export async function waitUntil<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: { what: string; timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  const { what, timeoutMs = 10_000, intervalMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const seen = last instanceof Error ? `last error: ${last.message}` : `last value: ${String(last)}`;
      throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what} (${seen})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
