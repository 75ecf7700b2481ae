import { randomUUID } from "node:crypto";
import http from "node:http";

export type Received = { path: string; headers: http.IncomingHttpHeaders; body: Buffer; at: number };
export type Behaviour = { status?: number; delayMs?: number; location?: string; body?: string };

/**
 * A real HTTP server standing in for a merchant's callback endpoint. Each request takes the next
 * behaviour from the queue (then the default): a status, a delay, a redirect.
 *
 * Its URLs start with a prefix of its own, and requests without it are answered 404 and not recorded:
 * a port is reused once an earlier receiver closed, and Kassa keeps retrying the callbacks of that
 * earlier test's merchant at the URL it set, which must not count as this test's callbacks.
 */
export async function startReceiver(defaultBehaviour: Behaviour = { status: 200, body: "ok" }) {
  const received: Received[] = [];
  const queue: Behaviour[] = [];
  const prefix = `/r-${randomUUID()}`;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (!req.url?.startsWith(prefix)) {
        res.writeHead(404);
        res.end();
        return;
      }
      received.push({
        path: req.url.slice(prefix.length) || "/",
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      });
      const behaviour = queue.shift() ?? defaultBehaviour;
      const respond = () => {
        if (res.destroyed) return;
        res.writeHead(behaviour.status ?? 200, behaviour.location ? { location: behaviour.location } : {});
        res.end(behaviour.body ?? "");
      };
      if (behaviour.delayMs) setTimeout(respond, behaviour.delayMs);
      else respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (path = "/hook") => `http://127.0.0.1:${port}${prefix}${path}`,
    port,
    received,
    queue,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
