import "server-only";

/**
 * How this installation prices a conversion: the spread Kassa keeps on the mid-market rate (parts per
 * million, KASSA_EXCHANGE_SPREAD_PPM) and how long a rate fixed on an invoice without a timer holds
 * (KASSA_RATE_LOCK_SECONDS). Read once from the configuration and passed whole to whatever prices,
 * credits or refunds, so no path can fall back to a spread of its own.
 */
export type Pricing = {
  readonly spreadPpm: number;
  readonly rateLockSeconds: number;
};
