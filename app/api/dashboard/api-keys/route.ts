import { withSession } from "@/lib/api/with-session";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { KassaError } from "@/lib/errors";
import { getSecretBox } from "@/lib/runtime";
import { apiKeyRequest } from "@/lib/schemas/dashboard";
import { can } from "@/lib/team/permissions";

export const GET = withSession({ permission: "api_keys.view" }, async ({ db, session }) => ({
  keys: (await listApiKeys(db, session.merchantId)).map((k) => ({
    id: k.id,
    api_key: k.key,
    label: k.label,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    last_used_ip: k.lastUsedIp,
    can_move_money: k.canMoveMoney,
    created_by: k.createdBy,
    is_creator_removed: k.isCreatorRemoved,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    allowed_ips: k.allowedIps ?? [],
    expires_at: k.expiresAt?.toISOString() ?? null,
  })),
}));

export const POST = withSession(
  { action: "api_key.create", request: apiKeyRequest, successStatus: 201 },
  async ({ db, session, body, request }) => {
    // A key that moves money only from a member who may create payouts (docs/security.md, "Key scope").
    if (body.can_move_money && !can(session.role, "payouts.create"))
      throw new KassaError(
        "forbidden",
        `Your role (${session.role}) cannot create a key that moves money: ask a member who may create payouts.`,
      );
    const key = await db.transaction(async (tx) => {
      const created = await createApiKey(tx, getSecretBox(), {
        merchantId: session.merchantId,
        label: body.label,
        canMoveMoney: body.can_move_money,
        createdBy: session.userId,
      });
      await recordSessionAction(tx, {
        session,
        request,
        action: "api_key_created",
        detail: `${created.key} (${created.label}${created.canMoveMoney ? ", moves money" : ""})`,
      });
      return created;
    });
    return {
      id: key.id,
      api_key: key.key,
      api_secret: key.secret,
      label: key.label,
      can_move_money: key.canMoveMoney,
    };
  },
);
