import { withSession } from "@/lib/api/with-session";
import { sendTestCallback } from "@/lib/callbacks/send-test-callback";
import { getConfig, getSecretBox } from "@/lib/runtime";

/** Sends a signed test callback to the saved URL and answers what the receiver did. */
export const POST = withSession({ permission: "callbacks.manage" }, async ({ db, session }) => {
  const config = getConfig();
  return sendTestCallback(db, {
    merchantId: session.merchantId,
    settings: { mode: config.mode, timeoutMs: config.callbackTimeoutMs, box: getSecretBox() },
  });
});
