import "server-only";

import { PG, pgErrorCode } from "@/lib/db/errors";
import { KassaError } from "@/lib/errors";
import { jsonReply, type Reply, requestId, toResponse } from "./respond";

/**
 * Who reads the error. `api`: merchant servers and the hosted checkout, which get the public API's
 * shapes (DESIGN.md section 8) so existing clients keep working. `dashboard`: our own pages, which
 * get the same information in one richer shape, `{ error, code, fields? }`, that the forms map
 * back onto their fields.
 */
export type ErrorAudience = "api" | "dashboard";

type WireShape = {
  /** The body of a KassaError (its HTTP status comes from ERROR_CODES in lib/errors.ts). */
  known: (error: KassaError) => unknown;
  /** What a caller reads when something broke on our side; the details go to the log only. */
  internalMessage: string;
};

/** The one table from an error to what each audience reads on the wire. */
const WIRE_SHAPES: Record<ErrorAudience, WireShape> = {
  api: {
    known: (error) =>
      error.code === "validation_failed" && error.fields
        ? { errors: error.fields }
        : { error: error.message, code: error.code },
    internalMessage: "Internal server error. Quote this request id to support.",
  },
  dashboard: {
    known: (error) => ({
      error: error.message,
      code: error.code,
      ...(error.fields && { fields: error.fields }),
    }),
    internalMessage:
      "Something went wrong on our side. Try again; if it keeps happening, quote this id to support.",
  },
};

/**
 * Database errors caused by what the client sent: text PostgreSQL cannot store (NUL, invalid
 * encodings) that reached a query from a path or query string. A 400, never a 500.
 */
export function asClientError(error: unknown): KassaError | undefined {
  const code = pgErrorCode(error);
  if (code === "22021" || code === "22P05") {
    return new KassaError("bad_content_format", "The request contains characters that cannot be stored.");
  }
  return undefined;
}

/** PostgreSQL's "too busy right now" codes: nothing was committed, and the same request can succeed later. */
const TRANSIENT_CODES: ReadonlySet<string | undefined> = new Set([
  PG.serializationFailure,
  PG.deadlockDetected,
  "55P03", // lock_not_available
  "53300", // too_many_connections
]);

/**
 * Contention that outlasted inTransaction's retries (lib/db/transaction.ts): a 503 with Retry-After,
 * which clients and their HTTP libraries retry, rather than a 500 that reads as a bug. Nothing of
 * the request was committed, and an idempotent request's key stays free for the retry.
 */
export function asTransientError(error: unknown): KassaError | undefined {
  if (!TRANSIENT_CODES.has(pgErrorCode(error))) return undefined;
  const busy = new KassaError(
    "service_unavailable",
    "Too many changes to the same records at once; nothing was saved. Try again in a moment.",
  );
  busy.retryAfterSeconds = 1;
  return busy;
}

/**
 * The response for anything a route handler threw. Known errors keep their status and message;
 * anything unexpected is logged with the request id and answered with a generic 500 that carries
 * the id: never a stack trace, never a secret.
 */
export function errorResponse(caught: unknown, audience: ErrorAudience = "api"): Response {
  return toResponse(errorReply(caught, audience, requestId()));
}

/** errorResponse's answer as plain data, for a caller that knows its request id. */
export function errorReply(caught: unknown, audience: ErrorAudience, id: string): Reply {
  const headers: Record<string, string> = { "x-request-id": id };
  const shape = WIRE_SHAPES[audience];
  const error = asClientError(caught) ?? asTransientError(caught) ?? caught;
  if (error instanceof KassaError) {
    if (error !== caught && error.status >= 500)
      console.warn(`[${audience}] request ${id} answered ${error.status}:`, caught);
    if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
    return jsonReply(shape.known(error), error.status, headers);
  }
  console.error(`[${audience}] request ${id} failed:`, error);
  return jsonReply({ error: shape.internalMessage, code: "internal_error", request_id: id }, 500, headers);
}
