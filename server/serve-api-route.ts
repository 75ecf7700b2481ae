import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiMatch, DirectCall, Reply } from "./api-routes";
import { readBody } from "./buffer-body";
import { ROUTE_HANDLER_FIELDS, setRouteHandlerHeaders } from "./route-handler-headers";

/**
 * The merchant API's fast path (docs/decisions/request-paths.md): for the routes of server/api-routes.ts,
 * calls the handler Next.js would call (a Web `Request` in, a `Response` out) without its pipeline, and
 * keeps what that gives a handler: `request.signal` aborts when the client goes, the body streams, and
 * the answer carries next.config.mjs's route-handler headers (from the same file).
 */

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value Node accepted but the Fetch spec refuses: the handlers never need it.
    }
  }
  return headers;
}

/** `Headers.get` over a request's raw headers: case-insensitive, a repeated field's values joined with ", ". */
export function headerReader(rawHeaders: string[]): DirectCall["headers"] {
  let fields: Map<string, string> | undefined;
  return {
    get: (name) => {
      if (!fields) {
        fields = new Map();
        for (let i = 0; i < rawHeaders.length; i += 2) {
          const field = rawHeaders[i]!.toLowerCase();
          const earlier = fields.get(field);
          fields.set(field, earlier === undefined ? rawHeaders[i + 1]! : `${earlier}, ${rawHeaders[i + 1]}`);
        }
      }
      return fields.get(name.toLowerCase()) ?? null;
    },
  };
}

function requestOrigin(req: IncomingMessage): string {
  const forwarded = String(req.headers["x-forwarded-proto"] ?? "")
    .split(",")[0]
    ?.trim();
  const proto = forwarded === "https" ? "https" : "http";
  try {
    return new URL(`${proto}://${req.headers.host ?? "localhost"}`).origin;
  } catch {
    return "http://localhost";
  }
}

/** A signal that aborts when the connection closes before the answer was written in full. */
function clientGoneSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort(new Error("the client closed the connection"));
  });
  return controller.signal;
}

function copyHeaders(response: Response, res: ServerResponse): void {
  setRouteHandlerHeaders(res);
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
}

/**
 * Writes a Response body chunk by chunk, waiting for the socket to drain. A body that turns out to
 * be a single chunk (every JSON answer) goes out with its Content-Length, as before; a longer one
 * goes out chunked as it is produced. If the client goes away, the body's stream is cancelled.
 */
async function pipeBody(body: ReadableStream<Uint8Array>, res: ServerResponse, signal: AbortSignal) {
  const reader = body.getReader();
  const cancel = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener("abort", cancel, { once: true });
  try {
    const first = await reader.read();
    if (first.done) return void res.end();
    // A body already complete answers the second read at once; a stream still producing does not,
    // and its first chunk goes out now rather than waiting for the next one.
    const nextRead = reader.read();
    const second = await Promise.race([
      nextRead,
      new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined))),
    ]);
    if (second?.done) {
      if (!res.hasHeader("content-length")) res.setHeader("content-length", first.value.byteLength);
      return void res.end(first.value);
    }
    if (!res.write(first.value)) await once(res, "drain", { signal });
    let chunk = second ?? (await nextRead);
    while (!chunk.done) {
      if (!res.write(chunk.value)) await once(res, "drain", { signal });
      chunk = await reader.read();
    }
    res.end();
  } catch (error) {
    if (!signal.aborted) throw error;
    // The client is gone: nobody is left to answer.
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

/**
 * Reads the body under `limit`, calls a route's `direct` entry with it and writes its plain answer: no
 * Web Request, Response or stream per request (docs/decisions/request-paths.md, "Plain requests"), no
 * promise of the server's own, and every header in the one `writeHead` (the route handlers' headers,
 * then `head`, then the answer's and its Content-Length). A header set on `res`
 * before (`connection: close` while stopping) stays. Anything thrown goes to `onError`.
 */
export function serveDirect(
  direct: NonNullable<ApiMatch["handler"]["direct"]>,
  call: Omit<DirectCall, "rawBody" | "isBodyTooLarge">,
  req: IncomingMessage,
  res: ServerResponse,
  options: { limit: number; head: readonly string[]; onError: (error: unknown) => void },
): void {
  const write = (reply: Reply) => {
    if (res.destroyed) return;
    const fields = [...ROUTE_HANDLER_FIELDS, ...options.head];
    const { headers } = reply;
    for (const name in headers) fields.push(name, headers[name]!);
    // writeHead sends the head at once: without a length here the body would go out chunked.
    fields.push("content-length", String(Buffer.byteLength(reply.body)));
    try {
      res.writeHead(reply.status, fields).end(reply.body);
    } catch (error) {
      options.onError(error);
    }
  };
  readBody(req, options.limit, (error, rawBody, isBodyTooLarge) => {
    if (error) return options.onError(error);
    if (isBodyTooLarge) res.setHeader("connection", "close");
    let answer: Promise<Reply>;
    try {
      answer = direct({ ...call, rawBody, isBodyTooLarge });
    } catch (thrown) {
      return options.onError(thrown);
    }
    answer.then(write, options.onError);
  });
}

/** Calls the matched route handler with a Web Request built from the Node request and writes its Response. */
export async function serveApiRoute(
  match: ApiMatch,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const signal = clientGoneSignal(res);
  const request = new Request(`${requestOrigin(req)}${req.url ?? "/"}`, {
    method: req.method,
    headers: toHeaders(req),
    signal,
  });
  const response = await match.handler(request, { params: Promise.resolve(match.params) });
  if (signal.aborted) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.statusCode = response.status;
  copyHeaders(response, res);
  if (!response.body) return void res.end();
  await pipeBody(response.body, res, signal);
}
