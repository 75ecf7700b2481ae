import { invoiceSettings } from "@/lib/api/runtime-values";
import { getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { claimRefund } from "@/lib/refunds/claim-refund";
import { getConfig } from "@/lib/runtime";
import { claimRefundRequest } from "@/lib/schemas/refunds";
import { hasUnstorableText } from "@/lib/unstorable-text";

/**
 * POST /refund/<token>/claim: the refund form without JavaScript (an ordinary form post), answered
 * with a redirect back to the page. A refusal comes back as a code the page words itself
 * (`?error=address|currency|closed|unavailable`), never as text from the query.
 */
export async function POST(request: Request, context: { params: Promise<{ token: string }> }) {
  const { token } = await context.params;
  const page = `/refund/${encodeURIComponent(token)}`;
  const back = (error?: string) =>
    new Response(null, { status: 303, headers: { location: error ? `${page}?error=${error}` : page } });
  if (hasUnstorableText(token)) return back();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return back("unavailable");
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" && !hasUnstorableText(value) ? value : undefined;
  };
  const parsed = claimRefundRequest.safeParse({
    currency: text("currency"),
    address: text("address"),
    tag: text("tag") || undefined,
  });
  if (!parsed.success) return back(parsed.error.issues[0]?.path[0] === "currency" ? "currency" : "address");
  try {
    await claimRefund(getDb(), {
      token,
      ...parsed.data,
      pricing: invoiceSettings().pricing,
      approvalSeconds: getConfig().withdrawalApprovalSeconds,
    });
  } catch (error) {
    if (!(error instanceof KassaError)) throw error;
    if (error.code === "not_found") return back();
    if (error.code === "conflict") return back("closed");
    const field = Object.keys(error.fields ?? {})[0];
    return back(
      field === "currency" ? "currency" : field === "address" || field === "tag" ? "address" : "unavailable",
    );
  }
  return back();
}
