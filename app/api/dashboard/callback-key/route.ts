import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { readCallbackKey } from "@/lib/callbacks/read-callback-key";
import { setCallbackKey } from "@/lib/callbacks/set-callback-key";
import { callbackKeyRequest } from "@/lib/schemas/dashboard";

/** The designated callback key, the key that signs for it now and the keys an owner may choose. */
export const GET = withSession({ permission: "callbacks.manage" }, async ({ db, session }) =>
  readCallbackKey(db, session.merchantId),
);

/** Chooses the designated callback key: an owner only, confirmed like a new key, audited. */
export const PUT = withSession(
  { action: "callback.signing_key", request: callbackKeyRequest },
  async ({ db, session, body, request }) => {
    const chosen = await setCallbackKey(db, {
      merchantId: session.merchantId,
      keyId: body.key_id,
      audit: sessionSource(session, request),
    });
    return { callback_key: chosen };
  },
);
