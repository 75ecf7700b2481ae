import type { z } from "zod";
import { currentSession, type MerchantSession } from "@/lib/auth/session";
import { type Db, getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { getConfig } from "@/lib/runtime";
import { parseJsonObject, readRawBody, routeParams, validate } from "./read-body";
import { asClientError, json, requestId } from "./respond";
import type { RouteContext } from "./with-merchant-signature";

export type SessionContext<Body> = {
  db: Db;
  session: MerchantSession;
  body: Body;
  params: Record<string, string>;
  request: Request;
  query: URLSearchParams;
};

/** Dashboard API errors: the public API's information in one richer shape, `{ error, code, fields? }`. */
function dashboardError(caught: unknown): Response {
  const error = asClientError(caught) ?? caught;
  if (error instanceof KassaError) {
    return json(
      { error: error.message, code: error.code, ...(error.fields && { fields: error.fields }) },
      error.status,
    );
  }
  const id = requestId();
  console.error(`[dashboard] request ${id} failed:`, error);
  return json(
    {
      error: "Something went wrong on our side. Try again; if it keeps happening, quote this id to support.",
      code: "internal_error",
      request_id: id,
    },
    500,
  );
}

/**
 * A mutation must come from our own pages: the browser's Origin (or, lacking it, Sec-Fetch-Site)
 * must say same-origin. With SameSite=Lax cookies this closes cross-site request forgery.
 */
function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (origin) {
    if (new URL(origin).host !== host)
      throw new KassaError("forbidden", "This request did not come from the Kassa dashboard.");
    return;
  }
  if (request.headers.get("sec-fetch-site") !== "same-origin") {
    throw new KassaError("forbidden", "This request did not come from the Kassa dashboard.");
  }
}

/**
 * The one wrapper for /api/dashboard routes: a signed-in merchant (401 otherwise), same-origin
 * mutations, the same body cap and JSON rules as the API, the endpoint's zod schema, one error shape.
 * Every query in a handler is scoped by `session.merchantId`.
 */
export function withSession<Req extends z.ZodType>(
  endpoint: { request?: Req; isPublic?: boolean },
  handler: (context: SessionContext<z.output<Req>>) => Promise<unknown>,
  status = 200,
): (request: Request, context: RouteContext) => Promise<Response> {
  return async (request, context) => {
    try {
      const isMutation = !["GET", "HEAD"].includes(request.method);
      if (isMutation) assertSameOrigin(request);
      const session = await currentSession();
      if (!session && !endpoint.isPublic)
        throw new KassaError("unauthorized", "Your session has ended. Sign in again.");
      const raw = isMutation ? await readRawBody(request, getConfig().bodyLimitBytes) : new Uint8Array();
      const body = validate(endpoint, parseJsonObject(raw));
      const result = await handler({
        db: getDb(),
        session: session as MerchantSession,
        body,
        params: await routeParams(context),
        request,
        query: new URL(request.url).searchParams,
      });
      return result instanceof Response ? result : json(result, status);
    } catch (error) {
      return dashboardError(error);
    }
  };
}
