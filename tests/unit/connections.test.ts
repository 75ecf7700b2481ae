import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionTracker } from "@/server/connections";

/** A real node:http server whose answers wait until the test lets them go. */
async function trackedServer() {
  const tracker = new ConnectionTracker();
  const waiting: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    tracker.started(req, res);
    waiting.push(() => res.end("done"));
  });
  server.on("connection", (socket) => tracker.opened(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<string>((resolve, reject) => {
      http
        .get({ port, host: "127.0.0.1", agent }, (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve(body));
        })
        .on("error", reject);
    });
  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setImmediate(resolve));
  };
  const close = async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { tracker, waiting, get, until, close };
}

describe("the server's connection tracker (the clean stop's bookkeeping)", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("counts a request in flight until its answer closes, and its connection as open until it goes", async () => {
    const server = await trackedServer();
    close = server.close;
    const { tracker } = server;
    expect([tracker.inFlight, tracker.open]).toEqual([0, 0]);
    const answer = server.get();
    await server.until(() => server.waiting.length === 1);
    expect([tracker.inFlight, tracker.open]).toEqual([1, 1]);
    const seen: number[] = [];
    tracker.forEachInFlight((res) => seen.push(res.statusCode));
    expect(seen).toEqual([200]);
    server.waiting.shift()!();
    expect(await answer).toBe("done");
    await server.until(() => tracker.inFlight === 0);
    // Keep-alive: the connection stays open, idle, for the next request.
    expect(tracker.open).toBe(1);
    const second = server.get();
    await server.until(() => server.waiting.length === 1);
    expect([tracker.inFlight, tracker.open]).toEqual([1, 1]);
    server.waiting.shift()!();
    await second;
  });

  it("closes only the connections idle for longer than asked, never one with a request in flight", async () => {
    const server = await trackedServer();
    close = server.close;
    const { tracker } = server;
    const answer = server.get();
    await server.until(() => server.waiting.length === 1);
    // Busy: not closed however long ago it last fell idle.
    expect(tracker.closeIdle(0, Date.now() + 60_000)).toBe(0);
    server.waiting.shift()!();
    await answer;
    await server.until(() => tracker.inFlight === 0);
    // Idle, but not for long enough.
    expect(tracker.closeIdle(60_000)).toBe(0);
    expect(tracker.open).toBe(1);
    expect(tracker.closeIdle(0, Date.now() + 1)).toBe(1);
    await server.until(() => tracker.open === 0);
  });
});
