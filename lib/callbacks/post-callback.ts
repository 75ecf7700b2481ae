import "server-only";

import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { CallbackSettings } from "./callback-settings";
import { guardedLookup, isAllowedAddress, isPublicAddress } from "./url-policy";

/** How many bytes of a receiver's answer are kept (public receivers only). */
export const EXCERPT_BYTES = 1024;

export type PostOutcome = {
  httpStatus: number | null;
  error: string | null;
  excerpt: string | null;
  latencyMs: number;
};

/**
 * One POST of a callback body: no redirects followed, a deadline for the whole exchange, the
 * address connected to checked by the URL policy (url-policy.ts). Never throws: every way it can
 * go wrong is an outcome with an error the delivery log shows.
 */
export function postCallback(
  url: URL,
  body: string,
  headers: Record<string, string>,
  settings: Pick<CallbackSettings, "mode" | "timeoutMs">,
): Promise<PostOutcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    let isDone = false;
    const finish = (outcome: Omit<PostOutcome, "latencyMs">) => {
      if (isDone) return;
      isDone = true;
      resolve({ ...outcome, latencyMs: Date.now() - started });
    };
    // An address literal skips the lookup below, so it is checked here.
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(host) && !isAllowedAddress(host, settings.mode)) {
      return finish({ httpStatus: null, error: "refused: the address is private or local", excerpt: null });
    }
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup: guardedLookup(settings.mode),
        timeout: settings.timeoutMs,
      },
      (response) => {
        // What a non-public target (a sandbox's loopback) answers is never kept: it would make the
        // transaction page a window onto services inside the host's network. The address is the
        // one this socket connected to, not a fresh resolution.
        const isPublicPeer = isPublicAddress(response.socket?.remoteAddress ?? "");
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          const excerpt = isPublicPeer
            ? Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_BYTES)
            : null;
          const isRedirect = status >= 300 && status < 400;
          finish({
            httpStatus: status,
            error:
              status >= 200 && status < 300
                ? null
                : isRedirect
                  ? `redirect to ${response.headers.location ?? "?"} not followed`
                  : `HTTP ${status}`,
            excerpt,
          });
        });
        response.on("error", (error) =>
          finish({ httpStatus: response.statusCode ?? null, error: error.message, excerpt: null }),
        );
      },
    );
    // A deadline for the whole exchange, not only for socket inactivity.
    const deadline = setTimeout(
      () => request.destroy(new Error(`timed out after ${settings.timeoutMs} ms`)),
      settings.timeoutMs,
    );
    request.on("timeout", () => request.destroy(new Error(`timed out after ${settings.timeoutMs} ms`)));
    request.on("error", (error) => finish({ httpStatus: null, error: error.message, excerpt: null }));
    request.on("close", () => clearTimeout(deadline));
    request.end(body);
  });
}
