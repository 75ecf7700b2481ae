import "server-only";

import type { IncomingMessage } from "node:http";

export type BufferedBody = { body: Buffer; isTooLarge: boolean };

/**
 * Reads a request body into memory under a cap, then calls `done` once. Past the cap it stops
 * keeping bytes (and the caller answers 413); a declared Content-Length over the cap is refused
 * without reading. A callback, not a promise: the merchant API's fast path reads every body through
 * it (docs/BENCHMARKS.md, "The front door without promises").
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  done: (error: Error | undefined, body: Buffer, isTooLarge: boolean) => void,
): void {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    done(undefined, Buffer.alloc(0), true);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let isSettled = false;
  const settle = (error: Error | undefined, body: Buffer, isTooLarge: boolean) => {
    if (isSettled) return;
    isSettled = true;
    done(error, body, isTooLarge);
  };
  req.on("data", (chunk: Buffer) => {
    if (isSettled) return;
    size += chunk.length;
    if (size > limit) {
      chunks.length = 0;
      req.pause();
      settle(undefined, Buffer.alloc(0), true);
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => settle(undefined, Buffer.concat(chunks), false));
  req.on("error", (error) => settle(error, Buffer.alloc(0), false));
}

/** readBody as a promise, for the paths that await it. */
export function bufferBody(req: IncomingMessage, limit: number): Promise<BufferedBody> {
  return new Promise((resolve, reject) =>
    readBody(req, limit, (error, body, isTooLarge) =>
      error ? reject(error) : resolve({ body, isTooLarge }),
    ),
  );
}
