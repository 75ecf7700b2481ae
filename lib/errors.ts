/**
 * The one error type of the engine and the API. Each code has one HTTP status and a reason for
 * existing; the wire shapes (DESIGN.md section 8) are produced in lib/api/error-response.ts.
 */
export const ERROR_CODES = {
  /** One or more fields failed validation; `fields` maps dotted field names to messages. */
  validation_failed: 400,
  /** The body is not a JSON object. */
  bad_content_format: 400,
  /** X-Processing-Key header missing. */
  required_header_key: 403,
  /** X-Processing-Key does not name an active key (unknown and revoked look the same). */
  bad_header_key: 403,
  /** X-Processing-Signature header missing. */
  required_header_signature: 403,
  /** The signature does not match the bytes received. */
  bad_header_signature: 403,
  /** The dashboard needs a signed-in merchant. */
  unauthorized: 401,
  /** A dashboard mutation that did not come from the dashboard (cross-site request forgery). */
  forbidden: 403,
  /**
   * A sensitive dashboard change from a session without a live step-up window: the dashboard asks
   * its user to confirm (POST /api/dashboard/step-up) and sends the same request again.
   */
  confirmation_required: 403,
  /** No such object for this caller; another merchant's objects look exactly like missing ones. */
  not_found: 404,
  /** The object is past the state the request needs (onboarding already done): doing it again would change what was set. */
  conflict: 409,
  /**
   * The object exists but is past use for good, or for now (a payment link turned off, expired or
   * used up): a customer holding its URL is told why, not that it never existed.
   */
  gone: 410,
  /** The path exists but not with this method. */
  method_not_allowed: 405,
  /** The request target is not a path (`OPTIONS *`, absolute form); answered by the server before Next. */
  bad_request: 400,
  /** A sign-in body sent without Content-Length (chunked): the server must know its size before reading it. */
  length_required: 411,
  /** The request body is over the size cap. */
  payload_too_large: 413,
  /** An Idempotency-Key header that is empty, longer than 255 characters or holds control characters. */
  idempotency_key_invalid: 400,
  /** The Idempotency-Key was first used with another request (path or body): replaying that answer would mislead. */
  idempotency_key_reused: 409,
  /** The first request with this Idempotency-Key is still running; the response carries Retry-After. */
  idempotency_key_in_flight: 409,
  /** Too many requests; the response carries Retry-After. */
  rate_limited: 429,
  /** A bug or an outage on our side; details go to the log with the request id, never to the client. */
  internal_error: 500,
  /** The database is unreachable or shutting down; safe to retry. */
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class KassaError extends Error {
  readonly status: number;
  /** Seconds the client should wait before retrying (rate limits). */
  retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = "KassaError";
    this.status = ERROR_CODES[code];
  }
}

/** A validation failure on named fields, in the public API's `{ "errors": { field: message } }` shape. */
export function fieldError(fields: Record<string, string>): KassaError {
  return new KassaError("validation_failed", "The given data was invalid.", fields);
}

export function notFound(what = "Not found"): KassaError {
  return new KassaError("not_found", what);
}
