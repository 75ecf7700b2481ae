import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequestHandler } from "@/server/create-request-handler";
import type { EngineClient } from "@/server/engine-client";

const LIMIT = 1024;

describe("requests refused before Next.js", () => {
  let server: http.Server;
  let port = 0;
  /** What Next.js was handed: method, target and the body it could read. */
  const reachedNext: string[] = [];

  beforeAll(async () => {
    const handle = createRequestHandler({
      handleNext: async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        reachedNext.push(`${req.method} ${req.url} ${Buffer.concat(chunks).length}`);
        res.end("next");
      },
      engine: Promise.resolve((async () => ({ status: 200, body: {} })) as EngineClient),
      bodyLimitBytes: () => LIMIT,
    });
    server = http.createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends raw bytes (a request fetch would not write) on a connection of its own; the answer's status and body. */
  function raw(head: string, body = ""): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () =>
        socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`),
      );
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("end", () => {
        const answer = Buffer.concat(chunks).toString();
        const [headers = "", rest = ""] = answer.split("\r\n\r\n", 2);
        // A chunked answer: the chunks' payloads without their size lines.
        const text = /transfer-encoding: chunked/i.test(headers)
          ? rest
              .split("\r\n")
              .filter((_, i) => i % 2 === 1)
              .join("")
          : rest;
        resolve({ status: Number(answer.split(" ")[1]), text });
      });
      socket.on("error", reject);
    });
  }

  it("answers TRACE and other methods no route has with 405 and the methods it has", async () => {
    // CONNECT never reaches the handler (node:http closes it) and a method node:http does not know is its own 400.
    for (const method of ["TRACE", "PROPFIND", "PURGE"]) {
      const answer = await raw(`${method} / HTTP/1.1\r\nHost: x`);
      expect(answer.status, method).toBe(405);
      expect(JSON.parse(answer.text)).toEqual({ error: "Method not allowed", code: "method_not_allowed" });
    }
    expect(reachedNext).toEqual([]);
  });

  it("answers OPTIONS * (a target that is not a path) with 400", async () => {
    const answer = await raw("OPTIONS * HTTP/1.1\r\nHost: x");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).code).toBe("bad_request");
    expect(reachedNext).toEqual([]);
  });

  it("refuses a next-auth body over the cap with 413 without reading it, and one without a length with 411", async () => {
    const huge = await raw(
      `POST /api/auth/callback/credentials HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${20 * 1024 * 1024}`,
      "email=a",
    );
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.text).code).toBe("payload_too_large");
    const chunked = await raw(
      "POST /api/auth/callback/credentials HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked",
      "7\r\nemail=a\r\n0\r\n\r\n",
    );
    expect(chunked.status).toBe(411);
    expect(reachedNext).toEqual([]);
  });

  it("hands next-auth a body within the cap, and leaves other paths' bodies to their routes", async () => {
    const body = "email=a%40example.com&password=x";
    const signIn = await raw(
      `POST /api/auth/callback/credentials HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}`,
      body,
    );
    expect(signIn.text).toBe("next");
    const dashboard = await raw(
      "POST /api/dashboard/invoices HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked",
      "2\r\n{}\r\n0\r\n\r\n",
    );
    expect(dashboard.text).toBe("next");
    expect(reachedNext).toEqual([
      `POST /api/auth/callback/credentials ${body.length}`,
      "POST /api/dashboard/invoices 2",
    ]);
  });
});
