import "server-only";

import { notFound } from "@/lib/errors";

/**
 * The id of a route's path (`[id]`): a positive whole number, or the 404 an id of another
 * merchant's row gets (`missing`), so a malformed id tells a caller no more than a wrong one.
 */
export function pathId(params: Record<string, string>, missing: string): number {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound(missing);
  return id;
}
