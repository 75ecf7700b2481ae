import type { Clock } from "@/lib/clock";

export type TestClock = Clock & {
  /** Moves "now" forward, as if that much time had passed. */
  advance: (seconds: number) => void;
};

/**
 * A clock that runs with the wall clock plus however far the test moved it. It never runs behind
 * the real time, so rows the database stamps with its own now() and jobs queued for "now" are due
 * under it too; a test moves it past a deadline instead of sleeping until the deadline.
 */
export function testClock(): TestClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
  };
}
