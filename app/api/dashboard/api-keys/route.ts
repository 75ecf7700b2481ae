import { withSession } from "@/lib/api/with-session";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { recordSessionAction } from "@/lib/audit/record-session-action";
import { confirmUser } from "@/lib/auth/confirm-user";
import { getSecretBox } from "@/lib/runtime";
import { apiKeyRequest } from "@/lib/schemas/dashboard";

export const GET = withSession({ permission: "api_keys.view" }, async ({ db, session }) => ({
  keys: (await listApiKeys(db, session.merchantId)).map((k) => ({
    id: k.id,
    api_key: k.key,
    label: k.label,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    last_used_ip: k.lastUsedIp,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    allowed_ips: k.allowedIps ?? [],
    expires_at: k.expiresAt?.toISOString() ?? null,
  })),
}));

export const POST = withSession(
  { permission: "api_keys.manage", request: apiKeyRequest, successStatus: 201 },
  async ({ db, session, body, request }) => {
    await confirmUser(db, { userId: session.userId, ask: "second_factor", box: getSecretBox(), ...body });
    const key = await db.transaction(async (tx) => {
      const created = await createApiKey(tx, getSecretBox(), {
        merchantId: session.merchantId,
        label: body.label,
      });
      await recordSessionAction(tx, {
        session,
        request,
        action: "api_key_created",
        detail: `${created.key} (${created.label})`,
      });
      return created;
    });
    return { id: key.id, api_key: key.key, api_secret: key.secret, label: key.label };
  },
);
