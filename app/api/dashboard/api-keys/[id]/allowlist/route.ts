import { withSession } from "@/lib/api/with-session";
import { setKeyAllowlist } from "@/lib/api-keys/set-key-allowlist";
import { sessionActor } from "@/lib/audit/session-actor";
import { requestAddress } from "@/lib/auth/request-address";
import { notFound } from "@/lib/errors";
import { apiKeyAllowlistRequest } from "@/lib/schemas/dashboard";

export const PUT = withSession(
  { permission: "api_keys.manage", request: apiKeyAllowlistRequest },
  async ({ db, session, params, body, request }) => {
    const keyId = Number(params.id);
    if (!Number.isSafeInteger(keyId)) throw notFound("No such API key.");
    const allowed = await setKeyAllowlist(db, {
      merchantId: session.merchantId,
      keyId,
      entries: body.allowed_ips,
      actor: sessionActor(session),
      address: requestAddress(request),
    });
    return { id: keyId, allowed_ips: allowed ?? [] };
  },
);
