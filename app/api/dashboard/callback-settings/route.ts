import { eq } from "drizzle-orm";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { merchants } from "@/lib/db/schema";
import { setBelowMinimumCallback } from "@/lib/merchants/set-below-minimum-callback";
import { callbackSettingsRequest } from "@/lib/schemas/dashboard";

export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session }) => {
  const [merchant] = await db
    .select({ isOn: merchants.isBelowMinimumCallbackOn })
    .from(merchants)
    .where(eq(merchants.id, session.merchantId));
  return { is_below_minimum_callback_on: merchant?.isOn ?? false };
});

export const PUT = withSession(
  { action: "callback.settings", request: callbackSettingsRequest },
  async ({ db, session, body, request }) => {
    await setBelowMinimumCallback(db, {
      merchantId: session.merchantId,
      isOn: body.is_below_minimum_callback_on,
      audit: sessionSource(session, request),
    });
    return { is_below_minimum_callback_on: body.is_below_minimum_callback_on };
  },
);
