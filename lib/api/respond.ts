import { randomUUID } from "node:crypto";
import { pgErrorCode } from "@/lib/db/errors";
import { KassaError } from "@/lib/errors";
import { currentRequestContext } from "./request-context";

export function requestId(): string {
  return currentRequestContext()?.requestId ?? randomUUID();
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

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

/**
 * The error shapes of /api/v2 (DESIGN.md section 8): `{ "errors": { field: message } }` for
 * validation, `{ "error", "code" }` for everything else. Unexpected errors are logged with the
 * request id and answered with a generic body: never a stack trace, never a secret.
 */
export function errorResponse(error: unknown): Response {
  const id = requestId();
  if (error instanceof KassaError) {
    const headers: Record<string, string> = { "x-request-id": id };
    if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
    if (error.code === "validation_failed" && error.fields)
      return json({ errors: error.fields }, error.status, headers);
    return json({ error: error.message, code: error.code }, error.status, headers);
  }
  const clientError = asClientError(error);
  if (clientError) return errorResponse(clientError);
  console.error(`[api] request ${id} failed:`, error);
  return json(
    {
      error: "Internal server error. Quote this request id to support.",
      code: "internal_error",
      request_id: id,
    },
    500,
    { "x-request-id": id },
  );
}
