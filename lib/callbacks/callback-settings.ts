import "server-only";

import type { SecretBox } from "@/lib/crypto/secret-box";
import type { CallbackMode } from "./url-policy";

/** How this process delivers callbacks: read by the delivery loop and by each HTTP post. */
export type CallbackSettings = {
  mode: CallbackMode;
  timeoutMs: number;
  scheduleSeconds: number[];
  box: SecretBox;
  /** Deliveries in flight per merchant in this process; more wait, so one slow endpoint cannot hold every worker. */
  perMerchantLimit?: number;
};
