import "server-only";

/**
 * `compute` with its last answer kept: asked again for the same text, it answers without computing.
 * For per-request work whose input repeats request after request (a keep-alive client's address, the
 * proxy in front, the deployment's Host), where one entry is enough and nothing can grow.
 */
export function keepLast<T>(compute: (text: string) => T): (text: string) => T {
  let last: { text: string; value: T } | undefined;
  return (text) => {
    if (last?.text !== text) last = { text, value: compute(text) };
    return last.value;
  };
}
