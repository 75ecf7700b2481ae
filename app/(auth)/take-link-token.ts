/**
 * The token of an e-mailed link (sign-up, password reset, invitation), carried after `#token=` so it
 * never reaches a server log or a Referer. Read once, it is taken out of the address bar and the
 * history: the form holds it from then on.
 */
export function takeLinkToken(): string {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
  window.history.replaceState(null, "", window.location.pathname);
  return token;
}
