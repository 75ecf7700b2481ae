const PREFIX = "/api/v2/";

/**
 * The request target of an /api/v2 path without its one trailing slash (`/api/v2/invoices/42/cancel/`
 * → `/api/v2/invoices/42/cancel`, the query kept), or the target unchanged. The public API's cancel
 * path ends in a slash, and its clients send it so: Next.js would answer them a 308 redirect, which
 * Python's urllib (among others) treats as an error for a POST. Rewritten here, before the fast path's
 * router and before Next.js, both answer the route directly; pages keep Next.js's redirects.
 */
export function stripApiTrailingSlash(url: string): string {
  if (!url.startsWith(PREFIX)) return url;
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  if (path.length <= PREFIX.length || !path.endsWith("/") || path.endsWith("//")) return url;
  return path.slice(0, -1) + (query < 0 ? "" : url.slice(query));
}
