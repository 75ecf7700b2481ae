import "server-only";

/** Scores and thresholds are decimals from 0 to 100 with at most two decimals, kept as strings. */
export const RISK_SCORE_PATTERN = /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/;

/** A score as hundredths, for exact comparison (never a float). Throws on a malformed score. */
export function scoreHundredths(score: string): number {
  if (!RISK_SCORE_PATTERN.test(score)) throw new Error(`not a risk score: ${score}`);
  const [whole, fraction = ""] = score.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** Hundredths back to the shortest decimal string ("62.5", "100"). */
export function formatScore(hundredths: number): string {
  const whole = Math.trunc(hundredths / 100);
  const fraction = String(hundredths % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Whether a payment with this score waits for review under this threshold. */
export function isAtOrAbove(score: string, threshold: string): boolean {
  return scoreHundredths(score) >= scoreHundredths(threshold);
}
