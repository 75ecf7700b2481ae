import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { cancelInvoiceById } from "./cancel-by-id";

/** The invoice page's Cancel: session and same-origin checks, then the public API's cancel rules. */
export const POST = withSession({ permission: "invoices.manage" }, async ({ db, session, params }) => {
  await cancelInvoiceById(db, { merchantId: session.merchantId, id: pathId(params, "No such invoice.") });
  return { status: "cancelled" };
});
