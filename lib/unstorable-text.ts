const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What makes `value` text PostgreSQL refuses, if anything: NUL, or a lone UTF-16 surrogate (half a
 * character, which no encoding can store). Request bodies (lib/json.ts) and path parameters are
 * checked with it, so such text is a clear 4xx instead of a database error.
 */
export function unstorableTextReason(value: string): "NUL character" | "lone surrogate" | undefined {
  if (value.includes("\u0000")) return "NUL character";
  return LONE_SURROGATE.test(value) ? "lone surrogate" : undefined;
}

/** Whether PostgreSQL would refuse `value`; no object's id or token contains such text. */
export function hasUnstorableText(value: string): boolean {
  return unstorableTextReason(value) !== undefined;
}
