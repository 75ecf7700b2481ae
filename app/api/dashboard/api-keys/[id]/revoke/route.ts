import { and, eq } from "drizzle-orm";
import { withSession } from "@/lib/api/with-session";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { apiKeys } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

export const POST = withSession(
  { permission: "api_keys.manage" },
  async ({ db, session, params, request }) => {
    const id = Number(params.id);
    const [key] = Number.isSafeInteger(id)
      ? await db
          .select({ key: apiKeys.key })
          .from(apiKeys)
          .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, session.merchantId)))
      : [];
    if (!key) throw notFound("No such API key.");
    await db.transaction(async (tx) => {
      await revokeApiKey(tx, { merchantId: session.merchantId, key: key.key });
      await recordSessionAction(tx, { session, request, action: "api_key_revoked", detail: key.key });
    });
    return { id, revoked: true };
  },
);
