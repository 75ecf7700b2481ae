import "server-only";

/**
 * An error in words for a job's log and `last_error`: its message and those of its causes. A
 * Drizzle query error's own message is the SQL text and its parameters; the database's reason is
 * its cause, so that wrapper is left out when it has one.
 */
export function describeError(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    const cause = (current as { cause?: unknown }).cause;
    const isQueryWrapper = message.startsWith("Failed query:") && cause !== undefined;
    if (!isQueryWrapper && !messages.includes(message)) messages.push(message);
    current = cause;
  }
  return messages.join(": ");
}
