import { and, eq } from "drizzle-orm";
import { withSession } from "@/lib/api/with-session";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { apiKeys } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

export const POST = withSession({}, async ({ db, session, params }) => {
  const id = Number(params.id);
  const [key] = Number.isSafeInteger(id)
    ? await db
        .select({ key: apiKeys.key })
        .from(apiKeys)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, session.merchantId)))
    : [];
  if (!key) throw notFound("No such API key.");
  await revokeApiKey(db, { merchantId: session.merchantId, key: key.key });
  return { id, revoked: true };
});
