import type { ServerResponse } from "node:http";
import { setRouteHandlerHeaders } from "./route-handler-headers";

/**
 * The answer to a throw that escaped every handler: the API's 500 shape (lib/api/respond.ts), with
 * the request id in the body and the header so that an operator can find the logged error. If the
 * answer had already begun, the connection is cut instead, so the client cannot mistake a
 * truncated body for a whole one.
 */
export function sendInternalError(res: ServerResponse, requestId: string, error: unknown): void {
  console.error(`[server] request ${requestId} failed:`, error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  setRouteHandlerHeaders(res);
  res.writeHead(500, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-request-id": requestId,
  });
  res.end(
    JSON.stringify({
      error: "Internal server error. Quote this request id to support.",
      code: "internal_error",
      request_id: requestId,
    }),
  );
}
