import "server-only";

import type { IncomingMessage } from "node:http";

export type BufferedBody = { body: Buffer; isTooLarge: boolean };

/**
 * Reads a request body into memory under a cap. Past the cap it stops keeping bytes (and the
 * caller answers 413); a declared Content-Length over the cap is refused without reading.
 */
export function bufferBody(req: IncomingMessage, limit: number): Promise<BufferedBody> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return Promise.resolve({ body: Buffer.alloc(0), isTooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let isTooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        isTooLarge = true;
        chunks.length = 0;
        req.pause();
        resolve({ body: Buffer.alloc(0), isTooLarge });
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve({ body: Buffer.concat(chunks), isTooLarge }));
    req.on("error", reject);
  });
}
