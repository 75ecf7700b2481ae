import { errorResponse } from "@/lib/api/error-response";
import { KassaError } from "@/lib/errors";

/** Unknown paths under /api/v2 answer JSON like the rest of the API, not an HTML page. */
function notFound(): Response {
  return errorResponse(new KassaError("not_found", "Not found"));
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
