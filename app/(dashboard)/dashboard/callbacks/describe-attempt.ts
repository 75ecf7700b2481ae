/**
 * What went wrong with one attempt, in the merchant's words: the engine records terse causes
 * (lib/callbacks/post-callback.ts, send-signed-callback.ts); the page says what happened and what
 * to do about it.
 */
export function describeAttemptError(error: string): string {
  const status = /^HTTP (\d{3})$/.exec(error);
  if (status)
    return `Your endpoint answered HTTP ${status[1]}. Any 2xx answer counts as delivered; check your handler's log.`;
  const redirect = /^redirect to (.*) not followed$/.exec(error);
  if (redirect)
    return `Your endpoint redirected to ${redirect[1]}. Kassa does not follow redirects: save the final URL.`;
  const timeout = /timed out after (\d+) ms/.exec(error);
  if (timeout)
    return `No answer within ${Number(timeout[1]) / 1000} s. Answer first, then do slow work in the background.`;
  if (error === "no callback URL is set")
    return "No callback URL is set, so nothing was sent. Save one above.";
  if (error === "no signing key: no callback key is chosen")
    return "Not sent: the key that created this transaction is gone (or it was made in the dashboard) and no callback key is chosen. An owner chooses one under Signing key above; it is sent at its next try.";
  if (error.startsWith("no signing key"))
    return "Not sent: no active key may sign it. The callback key is revoked: an owner chooses another under Signing key above; it is sent at its next try.";
  if (error.startsWith("refused") || error.includes("private or local"))
    return "Not sent: the URL points to a private or local address, which Kassa does not call in this mode.";
  if (error.includes("ECONNREFUSED")) return "Nothing is listening at that address (connection refused).";
  if (error.includes("ENOTFOUND") || error.includes("EAI_AGAIN"))
    return "The host name of the URL could not be found.";
  if (error.includes("ECONNRESET") || error.includes("socket hang up"))
    return "Your endpoint closed the connection before answering.";
  if (/certificate|SSL|TLS/i.test(error)) return `The HTTPS certificate was not accepted (${error}).`;
  return `Not delivered: ${error}.`;
}
