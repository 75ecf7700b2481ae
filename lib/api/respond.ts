import "server-only";

import { randomUUID } from "node:crypto";
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
