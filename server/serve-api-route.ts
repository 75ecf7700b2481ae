import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiMatch, DirectCall } from "./api-routes";
import { setRouteHandlerHeaders } from "./route-handler-headers";

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
 * Calls a route's `direct` entry with the buffered body and writes its plain answer: no Web Request,
 * Response or stream per request (docs/decisions/request-paths.md, "Plain requests"). The answer goes
 * out whole in `end`, from which Node sets its Content-Length.
 */
export async function serveDirect(
  direct: NonNullable<ApiMatch["handler"]["direct"]>,
  call: DirectCall,
  res: ServerResponse,
): Promise<void> {
  const reply = await direct(call);
  if (res.destroyed) return;
  setRouteHandlerHeaders(res);
  res.statusCode = reply.status;
  const { headers } = reply;
  for (const name in headers) res.setHeader(name, headers[name]!);
  res.end(reply.body);
}

/**
 * Calls the matched route handler with a Web Request built from the Node request and writes its
 * Response; `handled` is called once the handler has answered or thrown, before the body is written.
 */
export async function serveApiRoute(
  match: ApiMatch,
  req: IncomingMessage,
  res: ServerResponse,
  handled: () => void,
): Promise<void> {
  const signal = clientGoneSignal(res);
  let response: Response;
  try {
    const request = new Request(`${requestOrigin(req)}${req.url ?? "/"}`, {
      method: req.method,
      headers: toHeaders(req),
      signal,
    });
    response = await match.handler(request, { params: Promise.resolve(match.params) });
  } finally {
    handled();
  }
  if (signal.aborted) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.statusCode = response.status;
  copyHeaders(response, res);
  if (!response.body) return void res.end();
  await pipeBody(response.body, res, signal);
}
