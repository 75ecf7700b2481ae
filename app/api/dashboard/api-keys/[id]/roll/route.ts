import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { rollApiKey } from "@/lib/api-keys/roll-api-key";
import { sessionActor } from "@/lib/audit/session-actor";
import { requestAddress } from "@/lib/auth/request-address";
import { getSecretBox } from "@/lib/runtime";
import { apiKeyRollRequest } from "@/lib/schemas/dashboard";
import { can } from "@/lib/team/permissions";

/** Rolls a key: a new pair, the old one ending after the overlap. It hands out a secret, so it is confirmed first. */
export const POST = withSession(
  { action: "api_key.roll", request: apiKeyRollRequest, successStatus: 201 },
  async ({ db, session, params, body, request }) => {
    const keyId = pathId(params, "No such API key.");
    const rolled = await rollApiKey(db, getSecretBox(), {
      merchantId: session.merchantId,
      keyId,
      overlapSeconds: body.overlap_seconds,
      actor: sessionActor(session),
      address: requestAddress(request),
      createdBy: session.userId,
      mayMoveMoney: can(session.role, "payouts.create"),
    });
    return {
      id: rolled.id,
      api_key: rolled.key,
      api_secret: rolled.secret,
      label: rolled.label,
      can_move_money: rolled.canMoveMoney,
      replaced_key: rolled.replacedKey,
      replaced_until: rolled.replacedUntil.toISOString(),
    };
  },
);
