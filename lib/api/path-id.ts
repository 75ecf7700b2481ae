import "server-only";

import { notFound } from "@/lib/errors";

/**
 * The id of a route's path (`[id]`): a positive whole number, or the 404 an id of another
 * merchant's row gets (`missing`), so a malformed id tells a caller no more than a wrong one.
 */
export function pathId(params: Record<string, string>, missing: string, name = "id"): number {
  // Digits only: Number() would also read "1e3", "0x10", " 7 " and "7.0" as ids.
  const digits = params[name] ?? "";
  if (!/^[1-9][0-9]{0,15}$/.test(digits)) throw notFound(missing);
  const id = Number(digits);
  if (!Number.isSafeInteger(id)) throw notFound(missing);
  return id;
}
