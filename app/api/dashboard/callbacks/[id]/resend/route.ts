import { withSession } from "@/lib/api/with-session";
import { resendCallback } from "@/lib/callbacks/resend-callback";
import { notFound } from "@/lib/errors";

export const POST = withSession(
  { permission: "callbacks.manage", successStatus: 201 },
  async ({ db, session, params }) => {
    const id = Number(params.id);
    if (!Number.isSafeInteger(id)) throw notFound("No such callback.");
    return { callback_id: await resendCallback(db, { merchantId: session.merchantId, callbackId: id }) };
  },
);
