import "server-only";

import { getConfig } from "@/lib/runtime";
import type { PaymentRateSettings } from "./rate-payment";

/** The installation's settings for converting payments (KASSA_EXCHANGE_SPREAD_PPM, KASSA_RATE_LOCK_SECONDS). */
export function paymentRateSettings(): PaymentRateSettings {
  return { pricing: getConfig().pricing };
}
