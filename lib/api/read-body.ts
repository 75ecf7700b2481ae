import "server-only";

import type { z } from "zod";
import { fieldError, KassaError, notFound } from "@/lib/errors";
import { JsonExactNumber, JsonSyntaxError, type JsonValue, parseJson } from "@/lib/json";
import { withoutNullOptionals } from "@/lib/schemas/absent-nulls";
import { toFieldErrors } from "@/lib/schemas/messages";
import { hasUnstorableText } from "@/lib/unstorable-text";
import { currentRequestContext } from "./request-context";

export const tooLarge = (limit: number) =>
  new KassaError("payload_too_large", `Request body is larger than ${Math.floor(limit / 1024)} KiB.`);

/**
 * The exact bytes the client sent. The custom server buffers /api/v2 bodies (with the cap) before
 * Next sees the request, because Next drops GET bodies; outside it, the stream is read here under
 * the same cap.
 */
export async function readRawBody(request: Request, limit: number): Promise<Uint8Array> {
  const context = currentRequestContext();
  if (context?.bodyTooLarge) throw tooLarge(limit);
  if (context?.rawBody) return context.rawBody;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const badFormat = () => new KassaError("bad_content_format", "Bad content format");

/**
 * Parses a body as a JSON object; an empty body, and the body `null`, count as `{}` (a public Go
 * client posts `null` to accounts/list and currencies/list, and the public API accepts it; the
 * signature was already checked over the exact bytes sent).
 */
export function parseJsonObject(raw: Uint8Array): Record<string, JsonValue> {
  let text: string;
  try {
    text = decoder.decode(raw);
  } catch {
    throw badFormat();
  }
  if (text.trim() === "") return {};
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw badFormat();
    throw error;
  }
  if (value === null) return {};
  if (typeof value !== "object" || Array.isArray(value) || value instanceof JsonExactNumber)
    throw badFormat();
  return value;
}

/**
 * Parses a body object with an endpoint's schema; failures are field errors in the public API's
 * shape. Optional fields sent as `null` are absent (lib/schemas/absent-nulls.ts).
 */
export function validate<Req extends z.ZodType>(
  endpoint: { request?: Req },
  object: Record<string, JsonValue>,
): z.output<Req> {
  if (!endpoint.request) return object as z.output<Req>;
  const parsed = endpoint.request.safeParse(withoutNullOptionals(endpoint.request, object));
  if (!parsed.success) throw fieldError(toFieldErrors(parsed.error));
  return parsed.data;
}

/**
 * Route parameters as plain strings (Next.js hands them over as a promise); unstorable text is a 404:
 * no object's id or token contains it, so such a path names nothing.
 */
export async function routeParams(
  context:
    | { params?: Promise<Record<string, string | string[]>> | Record<string, string | string[]> }
    | undefined,
) {
  return plainRouteParams((await context?.params) ?? {});
}

/** routeParams for parameters already at hand (the fast path's): no promise to wait for. */
export function plainRouteParams(params: Record<string, string | string[]>): Record<string, string> {
  const entries = Object.entries(params).map(([key, value]) => [
    key,
    Array.isArray(value) ? value.join("/") : value,
  ]);
  if (entries.some(([, value]) => hasUnstorableText(value!))) throw notFound();
  return Object.fromEntries(entries) as Record<string, string>;
}
