import { eq } from "drizzle-orm";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { merchants } from "@/lib/db/schema";
import { getConfig } from "@/lib/runtime";
import { callbackUrlRequest } from "@/lib/schemas/dashboard";

export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session }) => {
  const [merchant] = await db
    .select({ url: merchants.callbackUrl })
    .from(merchants)
    .where(eq(merchants.id, session.merchantId));
  return { callback_url: merchant?.url ?? null, mode: getConfig().mode };
});

export const PUT = withSession(
  { action: "callback.url", request: callbackUrlRequest },
  async ({ db, session, body, request }) => {
    const url = body.callback_url || null;
    await setCallbackUrl(db, {
      merchantId: session.merchantId,
      url,
      mode: getConfig().mode,
      audit: sessionSource(session, request),
    });
    return { callback_url: url };
  },
);
