import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { setSupportEmail } from "@/lib/merchants/set-support-email";
import { supportEmailRequest } from "@/lib/schemas/merchant-settings";

/** Sets (or removes, with "") where customers' replies go; confirmed (a stolen session must not redirect them). */
export const PUT = withSession(
  { action: "settings.support_email", request: supportEmailRequest },
  async ({ db, session, body, request }) => ({
    support_email: await setSupportEmail(db, {
      merchantId: session.merchantId,
      email: body.support_email,
      audit: sessionSource(session, request),
    }),
  }),
);
