import "server-only";

import { TOLERANCE_PERCENT_PATTERN } from "@/lib/schemas/merchant-settings";

/** "1.25" (percent) as basis points (125): integers, so the tolerance is applied exactly. */
export function toleranceBasisPoints(percent: string): number {
  if (!TOLERANCE_PERCENT_PATTERN.test(percent)) throw new Error(`not a tolerance percentage: ${percent}`);
  const [whole, fraction = ""] = percent.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** Basis points back to the shortest percentage ("0.5", "1", "10"). */
export function formatTolerancePercent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const fraction = String(basisPoints % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}
