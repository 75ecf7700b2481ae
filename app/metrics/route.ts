import { currentRequestContext } from "@/lib/api/request-context";
import { accountKeys } from "@/lib/api/runtime-values";
import { getDb } from "@/lib/db/client";
import { collectMetrics } from "@/lib/metrics/collect-metrics";
import { mayScrapeMetrics } from "@/lib/metrics/may-scrape-metrics";
import { getConfig } from "@/lib/runtime";

// Read at every scrape, never prerendered or cached.
export const dynamic = "force-dynamic";

/**
 * GET /metrics: Prometheus text exposition for operators (docs/OPERATIONS.md). Loopback only, or
 * with KASSA_METRICS_TOKEN as a bearer token; anyone else gets a 404 (no token set) or a 401.
 */
export async function GET(request: Request): Promise<Response> {
  const config = getConfig();
  const access = mayScrapeMetrics({
    peerAddress: currentRequestContext()?.peerAddress,
    authorization: request.headers.get("authorization"),
    token: config.metricsToken,
  });
  if (access === "hidden") return Response.json({ error: "Not found", code: "not_found" }, { status: 404 });
  if (access === "unauthorized")
    return Response.json(
      { error: "Send the metrics token as a bearer token.", code: "unauthorized" },
      { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"' } },
    );
  const db = getDb();
  const registry = await collectMetrics({ db, evm: config.evm, keys: await accountKeys(db) });
  return new Response(await registry.metrics(), {
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
  });
}
