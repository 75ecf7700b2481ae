import { accountKeys, invoiceSettings } from "@/lib/api/runtime-values";
import { withPublicCheckout } from "@/lib/api/with-public-checkout";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { fixCurrencyRequest } from "@/lib/schemas/checkout";

/** POST /api/checkout/<token>/currency: fixes the payment currency, the rate and the address. */
export const POST = withPublicCheckout({ request: fixCurrencyRequest }, async ({ db, params, body }) => {
  const settings = invoiceSettings();
  const record = await fixInvoiceCurrency(db, {
    token: params.token ?? "",
    currency: body.currency,
    settings,
    keys: await accountKeys(db),
  });
  return checkoutView(db, record, settings);
});
