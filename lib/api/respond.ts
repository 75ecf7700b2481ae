import "server-only";

import { randomUUID } from "node:crypto";
import { currentRequestContext } from "./request-context";

export function requestId(): string {
  return currentRequestContext()?.requestId ?? randomUUID();
}

/**
 * An answer as plain data. The merchant API's wrapper builds one, and the server's fast path writes it
 * without a Web Response (docs/decisions/request-paths.md); `toResponse` gives Next.js its Response.
 */
export type Reply = { status: number; headers: Record<string, string>; body: string };

export const JSON_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
};

export function jsonReply(body: unknown, status = 200, headers?: Record<string, string>): Reply {
  // A literal, not a spread of JSON_HEADERS: every answer of the merchant API builds one.
  const all = {
    "content-type": JSON_HEADERS["content-type"],
    "cache-control": JSON_HEADERS["cache-control"],
  };
  return { status, headers: headers ? Object.assign(all, headers) : all, body: JSON.stringify(body) };
}

export function toResponse(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return toResponse(jsonReply(body, status, headers));
}
