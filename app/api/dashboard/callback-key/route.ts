import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { confirmUser } from "@/lib/auth/confirm-user";
import { readCallbackKey } from "@/lib/callbacks/read-callback-key";
import { setCallbackKey } from "@/lib/callbacks/set-callback-key";
import { getSecretBox } from "@/lib/runtime";
import { callbackKeyRequest } from "@/lib/schemas/dashboard";

/** The designated callback key, the key that signs for it now and the keys an owner may choose. */
export const GET = withSession({ permission: "callbacks.manage" }, async ({ db, session }) =>
  readCallbackKey(db, session.merchantId),
);

/** Chooses the designated callback key: an owner only, confirmed like a new key, audited. */
export const PUT = withSession(
  { permission: "callbacks.choose_key", request: callbackKeyRequest },
  async ({ db, session, body, request }) => {
    await confirmUser(db, { userId: session.userId, ask: "second_factor", box: getSecretBox(), ...body });
    const chosen = await setCallbackKey(db, {
      merchantId: session.merchantId,
      keyId: body.key_id,
      audit: sessionSource(session, request),
    });
    return { callback_key: chosen };
  },
);
