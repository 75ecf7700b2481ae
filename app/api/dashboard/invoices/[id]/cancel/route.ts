import { withSession } from "@/lib/api/with-session";
import { notFound } from "@/lib/errors";
import { cancelInvoiceById } from "./cancel-by-id";

/** The invoice page's Cancel: session and same-origin checks, then the public API's cancel rules. */
export const POST = withSession({ permission: "invoices.manage" }, async ({ db, session, params }) => {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id)) throw notFound("No such invoice.");
  await cancelInvoiceById(db, { merchantId: session.merchantId, id });
  return { status: "cancelled" };
});
