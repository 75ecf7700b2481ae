import "server-only";

import type { z } from "zod";
import type { Db } from "@/lib/db/client";

/** What Next.js passes a route handler besides the request. */
export type RouteContext = { params: Promise<Record<string, string | string[]>> };

/** The part of `Headers` the wrappers read; the fast path hands over one without building `Headers`. */
export type HeaderReader = Pick<Headers, "get">;

/**
 * A request as the server's fast path hands it to a route's `direct` entry, without a Web Request: the
 * body is already buffered under the route's cap (docs/decisions/request-paths.md, "Plain requests").
 */
export type DirectCall = {
  /** The request's path, without its query. */
  path: string;
  headers: HeaderReader;
  rawBody: Uint8Array;
  isBodyTooLarge: boolean;
  peerAddress: string | undefined;
  requestId: string;
  params: Record<string, string>;
};

/** What every wrapper returns: a Next.js route handler. */
export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

/**
 * The part of an endpoint every wrapper reads, in the same shape for the three kinds of caller:
 * the zod schema of the body and the status of a success. The merchant API's `Endpoint` is one.
 */
export type RouteSpec<Req extends z.ZodType = z.ZodType> = {
  request?: Req;
  successStatus?: 200 | 201;
  /**
   * The route exists in sandbox mode only: in production every wrapper answers 404, like an unknown
   * path, before it authenticates or reads the body (DESIGN.md section 8).
   */
  isSandboxOnly?: boolean;
  /**
   * A larger body cap than KASSA_BODY_LIMIT_BYTES, for a route that takes a batch (bulk payouts).
   * The handler carries it too (`bodyLimitBytes`), so the server buffers the route's body under it.
   */
  bodyLimitBytes?: number;
};

/** The body cap of a route: its own when it has one (and it is larger), else the configured one. */
export function bodyLimitOf(spec: { bodyLimitBytes?: number }, configured: number): number {
  return Math.max(spec.bodyLimitBytes ?? 0, configured);
}

/**
 * What every wrapper hands its handler, in the same shape; each wrapper adds who the caller is
 * (the merchant of an API key, the signed-in session, or nobody for the public checkout).
 */
export type HandlerContext<Body> = {
  db: Db;
  body: Body;
  /** Path parameters of the route (for example `foreign_id`), as plain strings. */
  params: Record<string, string>;
  query: URLSearchParams;
  request: Request;
};
