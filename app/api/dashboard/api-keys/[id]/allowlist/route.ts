import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { parseAllowlist } from "@/lib/api-keys/parse-allowlist";
import { setKeyAllowlist } from "@/lib/api-keys/set-key-allowlist";
import { sessionActor } from "@/lib/audit/session-actor";
import { requestAddress } from "@/lib/auth/request-address";
import { apiKeyAllowlistRequest } from "@/lib/schemas/dashboard";

/** Sets the addresses a key works from. Opening it wider weakens it, so it is confirmed first. */
export const PUT = withSession(
  { action: "api_key.allowlist", request: apiKeyAllowlistRequest },
  async ({ db, session, params, body, request }) => {
    const keyId = pathId(params, "No such API key.");
    // A mistyped range is refused before anything changes.
    parseAllowlist(body.allowed_ips);
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
