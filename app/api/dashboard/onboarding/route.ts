import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { completeOnboarding } from "@/lib/merchants/complete-onboarding";
import { getConfig, getSecretBox } from "@/lib/runtime";
import { onboardingRequest } from "@/lib/schemas/dashboard";
import { can } from "@/lib/team/permissions";

export const POST = withSession(
  { action: "merchant.onboard", request: onboardingRequest },
  async ({ db, session, body, request }) => {
    const key = await completeOnboarding(db, getSecretBox(), {
      merchantId: session.merchantId,
      name: body.name,
      callbackUrl: body.callback_url || undefined,
      keyLabel: body.key_label,
      mode: getConfig().mode,
      userId: session.userId,
      mayMoveMoney: can(session.role, "payouts.create"),
      audit: sessionSource(session, request),
    });
    return { api_key: key.key, api_secret: key.secret, label: key.label };
  },
);
