import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { resendCallback } from "@/lib/callbacks/resend-callback";

export const POST = withSession(
  { permission: "callbacks.manage", successStatus: 201 },
  async ({ db, session, params }) => {
    const id = pathId(params, "No such callback.");
    return { callback_id: await resendCallback(db, { merchantId: session.merchantId, callbackId: id }) };
  },
);
