import type { ServerResponse } from "node:http";
import responseHeaders from "./response-headers.json";

/**
 * The headers next.config.mjs gives every route handler's answer (server/response-headers.json), for
 * the answers the server writes without Next.js: the /api/v2 fast path and its own refusals.
 */
const ROUTE_HANDLER_HEADERS = [...responseHeaders.everyResponse, ...responseHeaders.routeHandlers].map(
  ({ key, value }) => [key.toLowerCase(), value] as const,
);

export function setRouteHandlerHeaders(res: ServerResponse): void {
  for (const [name, value] of ROUTE_HANDLER_HEADERS) res.setHeader(name, value);
}
