import "server-only";

import { asClientError, errorReply } from "@/lib/api/error-response";
import { JSON_HEADERS, type Reply } from "@/lib/api/respond";
import type { Db } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { hashRequest } from "./hash-request";
import { runIdempotent, type StoredAnswer } from "./run-idempotent";

/** The header that marks a replayed answer, as Stripe names it. */
export const REPLAYED_HEADER = "idempotent-replayed";

/** A client error's answer as the API sends it (lib/api/error-response.ts); undefined for a fault. */
async function clientErrorAnswer(caught: unknown, id: string): Promise<StoredAnswer | undefined> {
  const error = asClientError(caught) ?? caught;
  if (!(error instanceof KassaError) || error.status >= 500) return undefined;
  const { status, body } = errorReply(error, "api", id);
  return { status, body };
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
  /** The request's path, hashed with the body: the same key on another endpoint is a different request. */
  path: string;
  requestId: string;
  rawBody: Uint8Array;
  successStatus: number;
  run: (db: Db) => Promise<unknown>;
}): Promise<Reply> {
  const outcome = await runIdempotent(input.db, {
    merchantId: input.merchantId,
    key: input.key,
    requestHash: hashRequest({ path: input.path, body: input.rawBody }),
    run: async (db): Promise<StoredAnswer> => ({
      status: input.successStatus,
      body: JSON.stringify(await input.run(db)),
    }),
    answerError: (caught) => clientErrorAnswer(caught, input.requestId),
  });
  const headers: Record<string, string> = outcome.isReplay ? { [REPLAYED_HEADER]: "true" } : {};
  if (outcome.status >= 400) headers["x-request-id"] = input.requestId;
  return { status: outcome.status, headers: { ...JSON_HEADERS, ...headers }, body: outcome.body };
}
