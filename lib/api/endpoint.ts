import type { z } from "zod";

/**
 * One endpoint of the merchant API, described once: the route handler parses with `request`, and
 * the OpenAPI document (lib/openapi/document.ts) is generated from the same objects.
 */
export type Endpoint<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> = {
  method: "GET" | "POST";
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** false only for /ping; everything else needs the signature headers. */
  isSigned: boolean;
  request?: Req;
  response: Res;
  successStatus: 200 | 201;
  /** The success body is `response` itself, not wrapped in `{ "data": ... }` (transactions/info). */
  isUnwrapped?: boolean;
  /** Plain-text success body (ping). */
  isText?: boolean;
  /**
   * Honours an `Idempotency-Key` header (lib/idempotency): money-moving POSTs opt in with this one
   * flag, and the wrapper then runs the handler at most once per key and replays its first answer.
   */
  isIdempotent?: boolean;
  /**
   * Moves money out of or between the merchant's balances (withdrawals, exchanges): only an API key
   * created with that scope may call it (lib/api/with-merchant-signature.ts).
   */
  movesMoney?: boolean;
  /** Sandbox mode only: 404 in production before anything is read (lib/api/route-handler.ts). */
  isSandboxOnly?: boolean;
  /** A larger body cap for a batch (lib/api/route-handler.ts, `RouteSpec`). */
  bodyLimitBytes?: number;
};

export function defineEndpoint<Req extends z.ZodType, Res extends z.ZodType>(
  endpoint: Endpoint<Req, Res>,
): Endpoint<Req, Res> {
  return endpoint;
}
