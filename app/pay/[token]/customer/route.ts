import { accountKeys, invoiceSettings } from "@/lib/api/runtime-values";
import { openCheckout } from "@/lib/checkout/open-checkout";
import { getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { giveCustomerDetails } from "@/lib/invoices/give-customer-details";
import { customerDetailsRequest } from "@/lib/schemas/checkout";
import { hasUnstorableText } from "@/lib/unstorable-text";

/**
 * POST /pay/<token>/customer: the details form without JavaScript (an ordinary form post), answered
 * with a redirect back to the checkout page, which then offers the currencies or, when the details
 * were refused, says so (`?details=refused`). With JavaScript the page uses
 * POST /api/checkout/<token>/customer, which names each field's problem.
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
    return back("?details=refused");
  }
  const data: Record<string, string> = {};
  for (const [name, value] of form) {
    const text = typeof value === "string" ? value.trim() : "";
    if (name.startsWith("sender_data.") && text !== "") data[name.slice("sender_data.".length)] = text;
  }
  const parsed = customerDetailsRequest.safeParse({
    sender_type: form.get("sender_type"),
    sender_data: data,
  });
  if (!parsed.success) return back("?details=refused");
  const db = getDb();
  const settings = invoiceSettings();
  try {
    await giveCustomerDetails(db, { token, sender: parsed.data, clock: settings.clock });
    await openCheckout(db, { token, settings, keys: await accountKeys(db) });
  } catch (error) {
    if (error instanceof KassaError) return back("?details=refused");
    throw error;
  }
  return back();
}
