import "server-only";

import { asClientError, errorResponse } from "@/lib/api/error-response";
import { requestId } from "@/lib/api/respond";
import type { Db } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { hashRequest } from "./hash-request";
import { runIdempotent, type StoredAnswer } from "./run-idempotent";

/** The header that marks a replayed answer, as Stripe names it. */
export const REPLAYED_HEADER = "idempotent-replayed";

/** A client error's answer as the API sends it (lib/api/error-response.ts); undefined for a fault. */
async function clientErrorAnswer(caught: unknown): Promise<StoredAnswer | undefined> {
  const error = asClientError(caught) ?? caught;
  if (!(error instanceof KassaError) || error.status >= 500) return undefined;
  const response = errorResponse(error);
  return { status: response.status, body: await response.text() };
}

/**
 * The HTTP side of runIdempotent for a signed route: hashes the path and the exact body, runs
 * `run` (the route's handler, its result already in its wire envelope) at most once per key, and
 * answers with the stored status and body, marked `Idempotent-Replayed: true` when replayed.
 */
export async function respondIdempotently(input: {
  db: Db;
  merchantId: number;
  key: string;
  request: Request;
  rawBody: Uint8Array;
  successStatus: number;
  run: (db: Db) => Promise<unknown>;
}): Promise<Response> {
  const outcome = await runIdempotent(input.db, {
    merchantId: input.merchantId,
    key: input.key,
    requestHash: hashRequest({ path: new URL(input.request.url).pathname, body: input.rawBody }),
    run: async (db): Promise<StoredAnswer> => ({
      status: input.successStatus,
      body: JSON.stringify(await input.run(db)),
    }),
    answerError: clientErrorAnswer,
  });
  const headers: Record<string, string> = outcome.isReplay ? { [REPLAYED_HEADER]: "true" } : {};
  if (outcome.status >= 400) headers["x-request-id"] = requestId();
  return new Response(outcome.body, {
    status: outcome.status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}
