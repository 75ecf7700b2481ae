import "server-only";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether the session cookie is `Secure` (sent over https only). It is, in production mode and on
 * every https site; the one exception is a sandbox on plain-http localhost (no URL configured means
 * http://localhost:3000), where a Secure cookie would be one the developer's browser may not send back.
 */
export function needsSecureCookies(site: { mode: "sandbox" | "production"; publicUrl?: string }): boolean {
  if (site.mode === "production") return true;
  if (!site.publicUrl) return false;
  if (!URL.canParse(site.publicUrl)) return true;
  const url = new URL(site.publicUrl);
  return url.protocol === "https:" || !LOCAL_HOSTS.has(url.hostname);
}
