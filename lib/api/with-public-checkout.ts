import "server-only";

import type { z } from "zod";
import { getDb } from "@/lib/db/client";
import { getConfig } from "@/lib/runtime";
import { errorResponse } from "./error-response";
import { parseJsonObject, readRawBody, routeParams, validate } from "./read-body";
import { json } from "./respond";
import type { HandlerContext, RouteHandler, RouteSpec } from "./route-handler";
import { assertSandbox } from "./runtime-values";

export type CheckoutContext<Body> = HandlerContext<Body>;

/**
 * The wrapper for the hosted checkout's public endpoints: no authentication (the unguessable token
 * in the path is the capability), the same body cap, JSON parsing and error shapes as /api/v2.
 */
export function withPublicCheckout<Req extends z.ZodType>(
  endpoint: RouteSpec<Req>,
  handler: (context: CheckoutContext<z.output<Req>>) => Promise<unknown>,
): RouteHandler {
  return async (request, context) => {
    try {
      if (endpoint.isSandboxOnly) assertSandbox();
      const raw =
        request.method === "GET" ? new Uint8Array() : await readRawBody(request, getConfig().bodyLimitBytes);
      const body = validate(endpoint, parseJsonObject(raw));
      const result = await handler({
        db: getDb(),
        body,
        params: await routeParams(context),
        query: new URL(request.url).searchParams,
        request,
      });
      return json(result, endpoint.successStatus ?? 200, { "x-robots-tag": "noindex" });
    } catch (error) {
      return errorResponse(error, "api");
    }
  };
}
