import "server-only";

import type { z } from "zod";
import { findActiveKey, touchApiKey } from "@/lib/api-keys/find-active-key";
import { isAddressAllowed } from "@/lib/api-keys/is-address-allowed";
import { addressFrom } from "@/lib/auth/request-address";
import type { Config } from "@/lib/config";
import { type Db, getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { readIdempotencyKey } from "@/lib/idempotency/read-idempotency-key";
import { respondIdempotently } from "@/lib/idempotency/respond-idempotently";
import { getConfig, getSecretBox } from "@/lib/runtime";
import type { Endpoint } from "./endpoint";
import { errorReply } from "./error-response";
import { TokenBuckets } from "./rate-limit";
import { parseJsonObject, plainRouteParams, readRawBody, routeParams, tooLarge, validate } from "./read-body";
import { currentRequestContext } from "./request-context";
import { requestPublicOrigin } from "./request-public-origin";
import { jsonReply, type Reply, requestId, toResponse } from "./respond";
import {
  bodyLimitOf,
  type DirectCall,
  type HandlerContext,
  type HeaderReader,
  type RouteContext,
  type RouteHandler,
} from "./route-handler";
import { assertSandbox } from "./runtime-values";
import { isValidSignature } from "./signature";

let limiter: TokenBuckets | undefined;

/** The answer of a key without the money scope on a withdrawal or exchange (docs/security.md, "Key scope"). */
export const MONEY_SCOPE_MESSAGE =
  "This API key may not move money (withdrawals, exchanges). Create a key that may, as a member who may create payouts.";

/**
 * One limiter per process. A module variable is enough: this module is loaded only in Next's
 * compiled route graph, which the /api/v2 fast path calls into too (server/load-compiled-route.ts),
 * so every merchant request counts against the same buckets (tests/system/fast-path-shares-engine.test.ts).
 */
function rateLimiter(config: Config): TokenBuckets {
  limiter ??= new TokenBuckets(config.rateLimitPerSecond, config.rateLimitBurst);
  return limiter;
}

export type SignedContext<Body> = Omit<HandlerContext<Body>, "request" | "query"> & {
  merchantId: number;
  apiKeyId: number;
  /** The key's public half and the client's address, for the audit trail. */
  apiKey: string;
  clientAddress: string;
  /** The origin of the public links in an answer (checkout, payment links), as baseUrlFor gives it. */
  publicOrigin: () => string;
};

/** What both entries (Next's Request, the fast path's DirectCall) hand the one implementation. */
type Incoming = {
  /** The request's path (idempotency keys are scoped by it). */
  path: () => string;
  headers: HeaderReader;
  /** The fast path has the body already and hands it over as it is; Next's Request is read. */
  readBody: (limit: number) => Uint8Array | Promise<Uint8Array>;
  peerAddress: string | undefined;
  requestId: string;
  params: RouteContext["params"] | Record<string, string> | undefined;
};

/**
 * The one wrapper for merchant API routes: body under the size cap, X-Processing-Key and
 * X-Processing-Signature (HMAC-SHA512 of the exact bytes, constant time), JSON, the endpoint's zod
 * schema, then the handler, whose result is sent as `{ "data": ... }` with the endpoint's status.
 * Every failure becomes the documented 4xx; anything unexpected is a logged, generic 500.
 */
export function withMerchantSignature<Req extends z.ZodType, Res extends z.ZodType>(
  endpoint: Endpoint<Req, Res>,
  handler: (context: SignedContext<z.output<Req>>) => Promise<z.input<Res>>,
): RouteHandler {
  const serve = async (incoming: Incoming): Promise<Reply> => {
    try {
      if (endpoint.isSandboxOnly) assertSandbox();
      const config = getConfig();
      const reading = incoming.readBody(bodyLimitOf(endpoint, config.bodyLimitBytes));
      const raw = reading instanceof Uint8Array ? reading : await reading;
      const { headers } = incoming;

      const key = headers.get("x-processing-key");
      // The public API's own texts (DESIGN.md section 8): clients match on them.
      if (!key) throw new KassaError("required_header_key", "No key header");
      const signature = headers.get("x-processing-signature");
      if (!signature) throw new KassaError("required_header_signature", "No signature header");
      const db = getDb();
      const apiKey = await findActiveKey(db, getSecretBox(), key);
      if (!apiKey) throw new KassaError("bad_header_key", "Bad key header");
      const address = addressFrom(headers, incoming.peerAddress);
      // Outside the key's allowlist the key is not valid here: the public API's answer for a bad key,
      // judged before the signature, so a caller outside the list never learns whether it signed right.
      if (!isAddressAllowed(apiKey.allowedIps, address))
        throw new KassaError("bad_header_key", "Bad key header");
      if (!isValidSignature(raw, apiKey.secret, signature)) {
        throw new KassaError("bad_header_signature", "Bad signature header");
      }
      // The public API's code for a key lacking rights, with a message that says which right.
      if (endpoint.movesMoney && !apiKey.canMoveMoney)
        throw new KassaError("bad_header_key", MONEY_SCOPE_MESSAGE);
      const limit = rateLimiter(config).take(String(apiKey.id));
      if (!limit.isAllowed) {
        const error = new KassaError(
          "rate_limited",
          "Too many requests for this API key. Retry after the time in Retry-After.",
        );
        error.retryAfterSeconds = limit.retryAfterSeconds;
        throw error;
      }
      touchApiKey(db, apiKey.id, address);

      const object = parseJsonObject(raw);
      const body = validate(endpoint, object);
      const signed = {
        body,
        params:
          incoming.params instanceof Promise
            ? await routeParams(incoming)
            : plainRouteParams(incoming.params ?? {}),
        merchantId: apiKey.merchantId,
        apiKeyId: apiKey.id,
        apiKey: key,
        clientAddress: address,
        publicOrigin: () => requestPublicOrigin(headers, incoming.peerAddress),
      };
      const answer = async (on: Db) => {
        const result = await handler({ ...signed, db: on });
        return endpoint.isUnwrapped ? result : { data: result };
      };
      // Read after validation: as at Stripe, a request refused by validation stores nothing.
      const idempotencyKey = endpoint.isIdempotent ? readIdempotencyKey(headers) : undefined;
      if (idempotencyKey === undefined) return jsonReply(await answer(db), endpoint.successStatus);
      return await respondIdempotently({
        db,
        merchantId: apiKey.merchantId,
        key: idempotencyKey,
        path: incoming.path(),
        requestId: incoming.requestId,
        rawBody: raw,
        successStatus: endpoint.successStatus,
        run: answer,
      });
    } catch (error) {
      return errorReply(error, "api", incoming.requestId);
    }
  };
  const route: RouteHandler = async (request, context) =>
    toResponse(
      await serve({
        path: () => new URL(request.url).pathname,
        headers: request.headers,
        readBody: (limit) => readRawBody(request, limit),
        peerAddress: currentRequestContext()?.peerAddress,
        requestId: requestId(),
        params: context?.params,
      }),
    );
  const direct = (call: DirectCall) =>
    serve({
      path: () => call.path,
      headers: call.headers,
      readBody: (limit) => {
        if (call.isBodyTooLarge) throw tooLarge(limit);
        return call.rawBody;
      },
      peerAddress: call.peerAddress,
      requestId: call.requestId,
      params: call.params,
    });
  // Both read by the server's fast path, which buffers the body before the handler runs.
  return Object.assign(route, { bodyLimitBytes: endpoint.bodyLimitBytes, direct });
}
