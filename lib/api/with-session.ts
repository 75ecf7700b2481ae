import "server-only";

import type { z } from "zod";
import type { MerchantSession } from "@/lib/auth/merchant-session";
import { readRequestSession } from "@/lib/auth/read-request-session";
import { getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { getConfig } from "@/lib/runtime";
import { can, notAllowedMessage, type Permission } from "@/lib/team/permissions";
import {
  SENSITIVE_ACTIONS,
  type SensitiveAction,
  type SensitiveActionName,
} from "@/lib/team/sensitive-actions";
import { requireCurrentPassword, requireStepUp } from "./confirm-sensitive-action";
import { errorResponse } from "./error-response";
import { parseJsonObject, readRawBody, routeParams, validate } from "./read-body";
import { requestHost } from "./request-public-origin";
import { json } from "./respond";
import { bodyLimitOf, type HandlerContext, type RouteHandler, type RouteSpec } from "./route-handler";
import { assertSandbox } from "./runtime-values";

/** `sensitive`: the route's entry of lib/team/sensitive-actions.ts (its `audit` is the action to record). */
export type SessionContext<Body> = HandlerContext<Body> & {
  session: MerchantSession;
  sensitive: SensitiveAction | undefined;
};

/**
 * Every dashboard route says who may call it: a sensitive `action` of lib/team/sensitive-actions.ts
 * (which gives its permission and confirmation), a `permission` of lib/team/permissions.ts, or
 * `isPublic` (sign-up, password reset, accepting an invitation). A route with none does not compile.
 */
export type SessionRouteSpec<Req extends z.ZodType> = RouteSpec<Req> &
  (
    | { action: SensitiveActionName; permission?: never; isPublic?: never }
    | { permission: Permission; action?: never; isPublic?: never }
    | { isPublic: true; permission?: never; action?: never }
  );

/** A dashboard route handler, carrying what it asks of its caller (read by the role-matrix and sensitive-action tests). */
export type SessionRouteHandler = RouteHandler & {
  permission: Permission | "public";
  action: SensitiveActionName | undefined;
};

/**
 * A mutation must come from our own pages: the browser's Origin (or, lacking it, Sec-Fetch-Site)
 * must say same-origin. With SameSite=Lax cookies this closes cross-site request forgery.
 */
function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  // The host the browser asked for: X-Forwarded-Host only from a trusted proxy, the rule public links follow.
  const host = requestHost(request.headers);
  if (origin) {
    // `Origin: null` (sandboxed frames, some redirects) and anything unparseable are not our pages.
    if (!URL.canParse(origin) || new URL(origin).host !== host)
      throw new KassaError("forbidden", "This request did not come from the Kassa dashboard.");
    return;
  }
  if (request.headers.get("sec-fetch-site") !== "same-origin") {
    throw new KassaError("forbidden", "This request did not come from the Kassa dashboard.");
  }
}

/**
 * Wraps every /api/dashboard route: signed-in merchant (401; none if `isPublic`), same-origin mutations,
 * the API's body cap and JSON rules, zod schema, dashboard errors. Before the body: role permission (403),
 * a sensitive `action`'s step-up window (403 `confirmation_required`) unless its entry wants the password
 * in the body. Handlers scope every query by `session.merchantId`.
 */
export function withSession<Req extends z.ZodType>(
  endpoint: SessionRouteSpec<Req>,
  handler: (context: SessionContext<z.output<Req>>) => Promise<unknown>,
): SessionRouteHandler {
  const sensitive = endpoint.action ? SENSITIVE_ACTIONS[endpoint.action] : undefined;
  const permission: Permission | undefined = sensitive?.permission ?? endpoint.permission;
  const route: RouteHandler = async (request, context) => {
    try {
      if (endpoint.isSandboxOnly) assertSandbox();
      const isMutation = !["GET", "HEAD"].includes(request.method);
      if (isMutation) assertSameOrigin(request);
      const session = await readRequestSession(getDb(), request);
      if (!session && !endpoint.isPublic)
        throw new KassaError("unauthorized", "Your session has ended. Sign in again.");
      if (session && permission && !can(session.role, permission))
        throw new KassaError("forbidden", notAllowedMessage(session.role));
      const confirmation = sensitive?.confirmation;
      if (session && confirmation?.kind === "step_up") await requireStepUp(getDb(), session);
      const raw = isMutation
        ? await readRawBody(request, bodyLimitOf(endpoint, getConfig().bodyLimitBytes))
        : new Uint8Array();
      const body = validate(endpoint, parseJsonObject(raw));
      if (session && confirmation?.kind === "password")
        await requireCurrentPassword(getDb(), { session, confirmation, body });
      const result = await handler({
        db: getDb(),
        body,
        params: await routeParams(context),
        query: new URL(request.url).searchParams,
        request,
        session: session as MerchantSession,
        sensitive,
      });
      return result instanceof Response ? result : json(result, endpoint.successStatus ?? 200);
    } catch (error) {
      return errorResponse(error, "dashboard");
    }
  };
  return Object.assign(route, { permission: permission ?? ("public" as const), action: endpoint.action });
}
