import type { z } from "zod";
import { type Db, getDb } from "@/lib/db/client";
import { getConfig } from "@/lib/runtime";
import { parseJsonObject, readRawBody, routeParams, validate } from "./read-body";
import { errorResponse, json } from "./respond";
import type { RouteContext } from "./with-merchant-signature";

export type CheckoutContext<Body> = { db: Db; body: Body; params: Record<string, string>; request: Request };

/**
 * The wrapper for the hosted checkout's public endpoints: no authentication (the unguessable token
 * in the path is the capability), the same body cap, JSON parsing and error shapes as /api/v2.
 */
export function withPublicCheckout<Req extends z.ZodType>(
  endpoint: { request?: Req },
  handler: (context: CheckoutContext<z.output<Req>>) => Promise<unknown>,
  status = 200,
): (request: Request, context: RouteContext) => Promise<Response> {
  return async (request, context) => {
    try {
      const raw =
        request.method === "GET" ? new Uint8Array() : await readRawBody(request, getConfig().bodyLimitBytes);
      const body = validate(endpoint, parseJsonObject(raw));
      const result = await handler({ db: getDb(), body, params: await routeParams(context), request });
      return json(result, status, { "x-robots-tag": "noindex" });
    } catch (error) {
      return errorResponse(error);
    }
  };
}
