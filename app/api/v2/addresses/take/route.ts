import { takeAddress } from "@/lib/addresses/take-address";
import { accountKeys } from "@/lib/api/runtime-values";
import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { takeAddressEndpoint } from "@/lib/schemas/addresses";
import { sender } from "@/lib/schemas/common";

export const POST = withMerchantSignature(takeAddressEndpoint, async ({ db, merchantId, apiKeyId, body }) => {
  // The schema has checked the sender rules whenever a customer is named.
  const customer = body.end_user_reference
    ? { endUserReference: body.end_user_reference, ...sender.parse(body) }
    : undefined;
  const address = await takeAddress(db, await accountKeys(db), {
    merchantId,
    apiKeyId,
    foreignId: body.foreign_id,
    currency: body.currency,
    convertTo: body.convert_to,
    customer,
  });
  return {
    id: address.id,
    currency: address.currency,
    convert_to: address.convertTo,
    address: address.address,
    tag: address.tag || null,
    foreign_id: address.foreignId ?? body.foreign_id,
    end_user_reference: address.endUserReference,
  };
});
