import { withSession } from "@/lib/api/with-session";
import { listCallbacks } from "@/lib/callbacks/list-callbacks";

export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session, query }) => {
  const before = Number(query.get("before"));
  return listCallbacks(db, {
    merchantId: session.merchantId,
    before: Number.isSafeInteger(before) && before > 0 ? before : undefined,
  });
});
