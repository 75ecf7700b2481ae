import { and, eq } from "drizzle-orm";
import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { apiKeys } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { apiKeyRevokeRequest } from "@/lib/schemas/dashboard";

/** Revokes a key at once. It can cut a shop off, so it is confirmed like creating a key. */
export const POST = withSession(
  { action: "api_key.revoke", request: apiKeyRevokeRequest },
  async ({ db, session, params, request }) => {
    const id = pathId(params, "No such API key.");
    const [key] = await db
      .select({ key: apiKeys.key })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, session.merchantId)));
    if (!key) throw notFound("No such API key.");
    await db.transaction(async (tx) => {
      await revokeApiKey(tx, { merchantId: session.merchantId, key: key.key });
      await recordSessionAction(tx, { session, request, action: "api_key_revoked", detail: key.key });
    });
    return { id, revoked: true };
  },
);
