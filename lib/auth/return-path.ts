import "server-only";

/** The request header (named again in proxy.ts) through which proxy.ts tells server components which page was asked for. */
export const REQUEST_PATH_HEADER = "x-kassa-request-path";

/** Pages a merchant may be sent back to after signing in: the signed-in part of the app only. */
const RETURNABLE = ["/dashboard", "/onboarding"];
const BASE = "http://kassa.invalid";

/** A control character (tab, newline, DEL…) or a backslash. */
function isStrippedOrSlash(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f || char === "\\";
}

/**
 * The page to open after sign-in, from a `next` parameter that anyone can put in a link: a path on
 * this server under the dashboard, or undefined. Resolving it against a dummy origin and comparing
 * origins refuses what a browser would treat as another host (`//evil.example`, `/\evil.example`,
 * `https://evil.example`, tab or newline tricks), so a sign-in link can never be an open redirect.
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2048) return undefined;
  // Browsers strip tabs and newlines and read a backslash as a slash: refuse them outright.
  if ([...value].some(isStrippedOrSlash)) return undefined;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  const isReturnable = RETURNABLE.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`));
  return isReturnable ? `${url.pathname}${url.search}${url.hash}` : undefined;
}

/** The sign-in page's address that comes back to `path` afterwards (or plain /login for anything else). */
export function loginPathFor(path: string | null | undefined): string {
  const next = safeReturnPath(path);
  return next && next !== "/dashboard" ? `/login?next=${encodeURIComponent(next)}` : "/login";
}
