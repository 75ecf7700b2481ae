import { withSession } from "@/lib/api/with-session";
import { retryPendingCallbacks } from "@/lib/callbacks/retry-pending-callbacks";

/** "Retry everything pending now": every queued callback of the signed-in merchant, due at once. */
export const POST = withSession({ permission: "callbacks.manage" }, async ({ db, session }) => ({
  retried: await retryPendingCallbacks(db, { merchantId: session.merchantId }),
}));
