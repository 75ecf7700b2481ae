import "server-only";

import { createHash, timingSafeEqual } from "node:crypto";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

export type MetricsAccess = "allowed" | "unauthorized" | "hidden";

/**
 * Who may read /metrics. With KASSA_METRICS_TOKEN set, only a caller sending it as a bearer token
 * (from anywhere, loopback included: a reverse proxy on the same host makes every visitor look like
 * loopback). Without it, only a connection from loopback; anyone else sees a 404, as if the path
 * did not exist.
 */
export function mayScrapeMetrics(input: {
  peerAddress: string | undefined;
  authorization: string | null;
  token: string | undefined;
}): MetricsAccess {
  if (!input.token) return LOOPBACK.has(input.peerAddress ?? "") ? "allowed" : "hidden";
  const given = /^Bearer (.+)$/i.exec(input.authorization ?? "")?.[1];
  if (given === undefined) return "unauthorized";
  // Digests have one length whatever was sent, so the comparison takes the same time for any guess.
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(input.token)) ? "allowed" : "unauthorized";
}
