import type { Pricing } from "@/lib/rates/pricing";

/** What the chain benches price and credit at: the configuration's defaults (0.5% spread, a 15-minute rate lock). */
export const benchPricing: Pricing = { spreadPpm: 5_000, rateLockSeconds: 900 };
