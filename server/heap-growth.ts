import v8 from "node:v8";

/** The default: a full collection once the old generation has doubled since the last one. */
const DEFAULT_HEAP_GROWTH_PERCENT = "100";

/** 0, or a whole number from 10 to 400; lib/config.ts checks the variable with the same pattern. */
const VALID_PERCENT = /^(0|[1-9]\d|[1-3]\d\d|400)$/;

/**
 * How far V8 lets the heap's old generation grow after a full garbage collection before it runs the
 * next: KASSA_HEAP_GROWTH_PERCENT, 100 by default, 0 for V8's own choice. Under load Kassa's process
 * promotes short-lived request objects into the old generation at about 2.5 MB/s (docs/BENCHMARKS.md,
 * "Peak under load"); left to itself V8 lets that garbage reach four times the live heap before a full
 * collection (peak RSS 1.35 to 1.5 times the bare baseline's). At 100 it collects once the old
 * generation has doubled: a few more full collections under load, a peak close to the baseline's.
 * Must run before the heap grows (the start of the process); validated by lib/config.ts like every
 * setting.
 */
export function applyHeapGrowthSetting(env: Record<string, string | undefined> = process.env): void {
  const value = env.KASSA_HEAP_GROWTH_PERCENT ?? DEFAULT_HEAP_GROWTH_PERCENT;
  if (!VALID_PERCENT.test(value)) {
    console.error(
      `Kassa could not start: Invalid environment:\n  KASSA_HEAP_GROWTH_PERCENT: must be 0 (V8's own) or a whole number from 10 to 400, not "${value}"`,
    );
    process.exit(1);
    return;
  }
  // V8 reads the flag whenever it sets the next limit, so setting it after start-up takes effect.
  v8.setFlagsFromString(`--heap-growing-percent=${value}`);
}
