import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { parseAllowlist } from "@/lib/api-keys/parse-allowlist";
import { setKeyAllowlist } from "@/lib/api-keys/set-key-allowlist";
import { sessionActor } from "@/lib/audit/session-actor";
import { confirmUser } from "@/lib/auth/confirm-user";
import { requestAddress } from "@/lib/auth/request-address";
import { getSecretBox } from "@/lib/runtime";
import { apiKeyAllowlistRequest } from "@/lib/schemas/dashboard";

/** Sets the addresses a key works from. Opening it wider weakens it, so it asks the user again first. */
export const PUT = withSession(
  { permission: "api_keys.manage", request: apiKeyAllowlistRequest },
  async ({ db, session, params, body, request }) => {
    const keyId = pathId(params, "No such API key.");
    // A mistyped range is refused before the confirmation, so it does not use up an authenticator code.
    parseAllowlist(body.allowed_ips);
    await confirmUser(db, {
      userId: session.userId,
      ask: "second_factor",
      box: getSecretBox(),
      code: body.code,
      password: body.password,
    });
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
