import { accountKeys, invoiceSettings } from "@/lib/api/runtime-values";
import { withPublicCheckout } from "@/lib/api/with-public-checkout";
import { checkoutView, currencyChoices } from "@/lib/checkout/checkout-view";
import { notFound } from "@/lib/errors";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { loadInvoiceByToken } from "@/lib/invoices/load-invoice";
import { fixCurrencyRequest } from "@/lib/schemas/checkout";

/**
 * GET /api/checkout/<token>/currency: the currencies the customer could pay with, each at what it
 * costs now, for "Pay with another currency" (the checkout view carries them only while no coin is
 * chosen, so that a live page is not priced in every currency at each update).
 */
export const GET = withPublicCheckout({}, async ({ db, params }) => {
  const record = await loadInvoiceByToken(db, params.token ?? "");
  if (!record) throw notFound("No such invoice.");
  return { currencies: await currencyChoices(db, record, invoiceSettings().pricing) };
});

/**
 * POST /api/checkout/<token>/currency: fixes the payment currency, the rate and the address; with a
 * coin already chosen by the customer and nothing paid, switches to another one (400 otherwise).
 */
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
