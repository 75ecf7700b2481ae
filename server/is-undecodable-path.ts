import "server-only";

/**
 * A request path whose percent-escapes are not UTF-8 (`/pay/%FF`, `%ED%A0%80`, the UTF-8 form of a
 * lone surrogate): Next.js answers those with a 500 of its own. No page or object has such a name,
 * so the server answers 404 before Next sees them.
 */
export function isUndecodablePath(url: string): boolean {
  const path = url.split("?", 1)[0]!;
  if (!path.includes("%")) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}
