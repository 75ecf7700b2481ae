import { invoiceSettings } from "@/lib/api/runtime-values";
import { getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { startPaymentLink } from "@/lib/payment-links/start-payment-link";
import { assertVisitAllowed } from "@/lib/payment-links/visit-rate-limit";
import { startPaymentLinkRequest } from "@/lib/schemas/payment-links";
import { hasUnstorableText } from "@/lib/unstorable-text";

/**
 * POST /link/<token>/start: the link's form without JavaScript (an ordinary form post), answered with
 * a redirect: to the new invoice's checkout, or back to the link's page, which then says what went
 * wrong (`?refused=1`) or, for a link that takes no visit any more, why. With JavaScript the page uses
 * POST /api/link/<token>/start, which names each field's problem.
 */
export async function POST(request: Request, context: { params: Promise<{ token: string }> }) {
  const { token } = await context.params;
  // Relative locations: behind a proxy the request's own URL names the internal host, not the public one.
  const page = `/link/${encodeURIComponent(token)}`;
  const to = (location: string) => new Response(null, { status: 303, headers: { location } });
  if (hasUnstorableText(token)) return to(page);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return to(`${page}?refused=1`);
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  const data: Record<string, string> = {};
  for (const [name, value] of form) {
    const trimmed = typeof value === "string" ? value.trim() : "";
    if (name.startsWith("sender_data.") && trimmed !== "") data[name.slice("sender_data.".length)] = trimmed;
  }
  const amount = text("amount").replace(",", ".");
  const parsed = startPaymentLinkRequest.safeParse({
    ...(amount !== "" && { amount }),
    sender_type: text("sender_type"),
    sender_data: data,
  });
  if (!parsed.success) return to(`${page}?refused=1`);
  try {
    assertVisitAllowed(request);
    const invoice = await startPaymentLink(getDb(), {
      token,
      request: parsed.data,
      settings: invoiceSettings(),
    });
    return to(`/pay/${invoice.invoice.token}`);
  } catch (error) {
    if (!(error instanceof KassaError)) throw error;
    return to(error.code === "validation_failed" ? `${page}?refused=1` : page);
  }
}
