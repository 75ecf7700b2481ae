import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { resendCallback } from "@/lib/callbacks/resend-callback";
import { resendCallbackEndpoint } from "@/lib/schemas/callbacks";

export const POST = withMerchantSignature(resendCallbackEndpoint, async ({ db, merchantId, body }) => ({
  callback_id: await resendCallback(db, { merchantId, callbackId: body.callback_id, transactionId: body.id }),
  status: "queued" as const,
}));
