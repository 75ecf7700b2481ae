import { withSession } from "@/lib/api/with-session";
import { signUpMerchant } from "@/lib/merchants/create-merchant";
import { getSecretBox } from "@/lib/runtime";
import { createMerchantInput } from "@/lib/schemas/merchant";

/** Public: creates the merchant and its sign-in; the page then signs in and continues to onboarding. */
export const POST = withSession(
  { request: createMerchantInput, isPublic: true, successStatus: 201 },
  async ({ db, body }) => {
    const merchant = await signUpMerchant(db, getSecretBox(), body);
    return { merchant_id: merchant.merchantId, email: merchant.email };
  },
);
