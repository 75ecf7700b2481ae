import "server-only";

/**
 * A token bucket per API key, per process: `perSecond` requests on average with bursts up to
 * `burst`. Several app instances each keep their own buckets, so the limit a merchant sees is the
 * per-instance figure times the instances behind the load balancer (documented in docs/scale-out.md).
 */
export type RateLimitResult = { isAllowed: true } | { isAllowed: false; retryAfterSeconds: number };

export class TokenBuckets {
  readonly #buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    readonly now: () => number = () => Date.now(),
  ) {}

  take(key: string): RateLimitResult {
    if (this.perSecond <= 0) return { isAllowed: true };
    const now = this.now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond);
    bucket.updatedAt = now;
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > 100_000) this.#sweep(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { isAllowed: true };
    }
    return {
      isAllowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)),
    };
  }

  /** Forgets buckets that have refilled completely (they would start full anyway). */
  #sweep(now: number) {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond >= this.burst)
        this.#buckets.delete(key);
    }
  }
}
