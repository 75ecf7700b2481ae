import { describe, expect, it } from "vitest";
import { TokenBuckets } from "@/lib/api/rate-limit";

describe("per-key token buckets", () => {
  it("allows a burst, then the steady rate, and says when to retry", () => {
    let now = 0;
    const buckets = new TokenBuckets(2, 4, () => now);
    for (let i = 0; i < 4; i++) expect(buckets.take("k").isAllowed).toBe(true);
    expect(buckets.take("k")).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
    now += 500; // half a second refills one token at 2 per second
    expect(buckets.take("k").isAllowed).toBe(true);
    expect(buckets.take("k").isAllowed).toBe(false);
    expect(buckets.take("other").isAllowed).toBe(true); // keys are independent
  });

  it("is off at zero", () => {
    const buckets = new TokenBuckets(0, 0);
    for (let i = 0; i < 1000; i++) expect(buckets.take("k").isAllowed).toBe(true);
  });
});
