import { accountKeys, invoiceSettings } from "@/lib/api/runtime-values";
import { withPublicCheckout } from "@/lib/api/with-public-checkout";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { openCheckout } from "@/lib/checkout/open-checkout";
import { giveCustomerDetails } from "@/lib/invoices/give-customer-details";
import { customerDetailsRequest } from "@/lib/schemas/checkout";

/**
 * POST /api/checkout/<token>/customer: the customer's details, when the merchant left them to the
 * customer; answers the checkout view, which then offers the currencies or shows the address (an
 * invoice whose currency the merchant fixed gets it now, as opening the page would have).
 */
export const POST = withPublicCheckout({ request: customerDetailsRequest }, async ({ db, params, body }) => {
  const settings = invoiceSettings();
  const token = params.token ?? "";
  await giveCustomerDetails(db, { token, sender: body, clock: settings.clock });
  const record = await openCheckout(db, { token, settings, keys: await accountKeys(db) });
  return checkoutView(db, record, settings);
});
