import { accountKeys, invoiceSettings } from "@/lib/api/runtime-values";
import { getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { fixCurrencyRequest } from "@/lib/schemas/checkout";
import { hasUnstorableText } from "@/lib/unstorable-text";

/**
 * POST /pay/<token>/currency: the currency picker's form without JavaScript (an ordinary
 * `application/x-www-form-urlencoded` post), answered with a redirect back to the checkout page,
 * which then shows the address or, when the choice was refused, says so (`?choice=refused`).
 * With JavaScript the page uses POST /api/checkout/<token>/currency instead.
 */
export async function POST(request: Request, context: { params: Promise<{ token: string }> }) {
  const { token } = await context.params;
  // A relative location: behind a proxy the request's own URL names the internal host, not the public one.
  const page = `/pay/${encodeURIComponent(token)}`;
  const back = (query = "") => new Response(null, { status: 303, headers: { location: `${page}${query}` } });
  if (hasUnstorableText(token)) return back();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return back("?choice=refused");
  }
  const parsed = fixCurrencyRequest.safeParse({ currency: form.get("currency") });
  if (!parsed.success) return back("?choice=refused");
  const db = getDb();
  try {
    await fixInvoiceCurrency(db, {
      token,
      currency: parsed.data.currency,
      settings: invoiceSettings(),
      keys: await accountKeys(db),
    });
  } catch (error) {
    if (error instanceof KassaError) return back("?choice=refused");
    throw error;
  }
  return back();
}
