import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiRouter } from "./api-routes";
import { bufferBody } from "./buffer-body";
import type { EngineClient } from "./engine-client";
import { CLI_BRIDGE_PATH, CLI_TOKEN_HEADER, ENGINE_PATH, ENGINE_TOKEN_HEADER } from "./engine-contract";
import { isUndecodablePath } from "./is-undecodable-path";
import { requestContextStorage } from "./request-context";
import { setRouteHandlerHeaders } from "./route-handler-headers";
import { sendInternalError } from "./send-internal-error";
import { headerReader, serveApiRoute, serveDirect } from "./serve-api-route";
import { holdStores } from "./shared-async-local-storage";
import { stripApiTrailingSlash } from "./strip-api-trailing-slash";

type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export type RequestHandlerOptions = {
  handleNext: NextHandler;
  /** The engine, once started; requests that arrive earlier (development) wait for it. */
  engine: Promise<EngineClient>;
  bodyLimitBytes: () => number;
  /** The fast path's router, or undefined when Next.js answers all of /api/v2. */
  apiRouter?: ApiRouter;
  /** Development only: the engine is reached through Next's handler with this token. */
  loopbackEngineToken?: string;
  /** Whether the site is https only (EngineStarted.isHttpsOnly); false until the engine has started. */
  isHttpsOnly?: () => boolean;
};

/**
 * One year, renewed by every answer. Not `includeSubDomains`: other hosts of the operator's domain
 * are not Kassa's to decide. Browsers ignore the header on plain http, as RFC 6797 requires.
 */
const STRICT_TRANSPORT_SECURITY = "max-age=31536000";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

const hasBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? "0") > 0;

const pathOf = (url: string) => {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  setRouteHandlerHeaders(res);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

const notFound = (res: ServerResponse) => sendJson(res, 404, { error: "Not found", code: "not_found" });

/** Every method a Kassa route answers; TRACE, CONNECT and WebDAV's methods reach no handler. */
const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Requests no route can answer, refused before Next.js (which answers some of them with a 500):
 * a method outside ALLOWED_METHODS (405), and a target that is not a path, such as `OPTIONS *` (400).
 * Returns whether it answered.
 */
function refuseUnroutable(req: IncomingMessage, res: ServerResponse): boolean {
  if (!ALLOWED_METHODS.includes(req.method ?? "")) {
    res.setHeader("allow", ALLOWED_METHODS.join(", "));
    sendJson(res, 405, { error: "Method not allowed", code: "method_not_allowed" });
    return true;
  }
  if (!(req.url ?? "").startsWith("/")) {
    sendJson(res, 400, { error: "The request target must be a path.", code: "bad_request" });
    return true;
  }
  return false;
}

/**
 * next-auth reads its own bodies (the sign-in form) with no cap: bodies to /api/auth/* must declare
 * a Content-Length within the cap, which node:http then holds the client to. Over it is a 413 without
 * reading; a body without a length (chunked) is a 411, since next-auth's own client always sends one.
 * Returns whether it answered.
 */
function refuseUncappedAuthBody(req: IncomingMessage, res: ServerResponse, limit: number): boolean {
  if (!hasBody(req)) return false;
  const length = req.headers["content-length"];
  if (length === undefined) {
    res.setHeader("connection", "close");
    sendJson(res, 411, { error: "Send the body with a Content-Length.", code: "length_required" });
    return true;
  }
  if (Number(length) <= limit) return false;
  res.setHeader("connection", "close");
  sendJson(res, 413, { error: "Request body is too large.", code: "payload_too_large" });
  return true;
}

/**
 * Every request's way through the server: methods and targets no route answers, the engine's and
 * the CLI's doors, the 404 for paths that do not decode, the cap on next-auth's bodies, the /api/v2 fast path, GET bodies buffered for Next.js, and Next.js for the rest.
 * Each request runs with its id (and buffered body) in the request context the handlers read.
 */
export function createRequestHandler(options: RequestHandlerOptions) {
  const storage = requestContextStorage();
  // Next.js renders and streams with its stores until the response closes: they stay on till then.
  const handleNext: NextHandler = (req, res) => {
    res.once("close", holdStores());
    return options.handleNext(req, res);
  };
  // Every request waits for the engine; once it is there, without an await of its own.
  let isEngineReady = false;
  options.engine.then(
    () => {
      isEngineReady = true;
    },
    () => {},
  );

  const route = async (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    if (refuseUnroutable(req, res)) return;
    req.url = stripApiTrailingSlash(req.url ?? "/");
    const url = req.url;
    const pathname = pathOf(url);
    if (pathname === ENGINE_PATH || pathname.startsWith(`${ENGINE_PATH}/`)) {
      const token = req.headers[ENGINE_TOKEN_HEADER];
      const isOwnCall = options.loopbackEngineToken !== undefined && token === options.loopbackEngineToken;
      return isOwnCall ? handleNext(req, res) : notFound(res);
    }
    if (pathname === CLI_BRIDGE_PATH) {
      const token = req.headers[CLI_TOKEN_HEADER];
      if (req.method !== "POST" || !LOOPBACK.has(req.socket.remoteAddress ?? "") || typeof token !== "string")
        return notFound(res);
      const engine = await options.engine;
      const { body, isTooLarge } = await bufferBody(req, options.bodyLimitBytes());
      if (isTooLarge)
        return sendJson(res, 413, { error: "Request body is too large.", code: "payload_too_large" });
      const reply = await engine({ action: "cli", token, body: body.toString("utf8") });
      return sendJson(res, reply.status, reply.body);
    }
    if (isUndecodablePath(url)) return notFound(res);
    if (pathname.startsWith("/api/auth/") && refuseUncappedAuthBody(req, res, options.bodyLimitBytes()))
      return;
    if (!isEngineReady) await options.engine;
    const isFastPath = url.startsWith("/api/v2/") || url.startsWith("/api/checkout/");
    const api = isFastPath ? options.apiRouter?.(req.method ?? "", pathname) : undefined;
    if (api) {
      const limit = Math.max(api.handler.bodyLimitBytes ?? 0, options.bodyLimitBytes());
      const { body, isTooLarge } = await bufferBody(req, limit);
      if (isTooLarge) res.setHeader("connection", "close");
      const { direct } = api.handler;
      if (direct) {
        const call = {
          path: pathname,
          rawBody: body,
          isBodyTooLarge: isTooLarge,
          requestId,
          params: api.params,
          headers: headerReader(req.rawHeaders),
          peerAddress: req.socket.remoteAddress,
        };
        return serveDirect(direct, call, res);
      }
      // The peer too: API key allowlists and the audit trail judge the client address. The stores
      // are held until the handler has answered: an event stream's body, written for minutes, reads none.
      const release = holdStores();
      return storage.run(
        { requestId, rawBody: body, bodyTooLarge: isTooLarge, peerAddress: req.socket.remoteAddress },
        () => serveApiRoute(api, req, res, release),
      );
    }
    // Next.js drops the body of a GET, and GET /api/v2/transactions/info carries one: buffer it
    // here (under the cap) for the route. Other methods keep their stream, read by the route.
    if (req.method === "GET" && url.startsWith("/api/v2/") && hasBody(req)) {
      const { body, isTooLarge } = await bufferBody(req, options.bodyLimitBytes());
      if (isTooLarge) res.setHeader("connection", "close");
      return storage.run(
        { requestId, rawBody: body, bodyTooLarge: isTooLarge, peerAddress: req.socket.remoteAddress },
        () => handleNext(req, res),
      );
    }
    return storage.run({ requestId, peerAddress: req.socket.remoteAddress }, () => handleNext(req, res));
  };

  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    res.setHeader("x-request-id", requestId);
    if (options.isHttpsOnly?.()) res.setHeader("strict-transport-security", STRICT_TRANSPORT_SECURITY);
    route(req, res, requestId).catch((error) => sendInternalError(res, requestId, error));
  };
}
