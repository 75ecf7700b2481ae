import { sql } from "drizzle-orm";
import { errorResponse } from "@/lib/api/error-response";
import { getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";

/** Unauthenticated liveness: OK only while the database answers too. */
export async function GET(): Promise<Response> {
  try {
    await getDb().execute(sql`select 1`);
  } catch {
    return errorResponse(new KassaError("service_unavailable", "The database is not reachable."));
  }
  return new Response("OK", {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
