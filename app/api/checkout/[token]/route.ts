import { accountKeys, invoiceSettings } from "@/lib/api/runtime-values";
import { withPublicCheckout } from "@/lib/api/with-public-checkout";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { openCheckout } from "@/lib/checkout/open-checkout";

/** GET /api/checkout/<token>: the invoice as the customer sees it. */
export const GET = withPublicCheckout({}, async ({ db, params }) => {
  const settings = invoiceSettings();
  const record = await openCheckout(db, { token: params.token ?? "", settings, keys: await accountKeys(db) });
  return checkoutView(db, record, settings);
});
