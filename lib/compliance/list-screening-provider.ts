import "server-only";

import type { ScreeningConfig } from "@/lib/config";
import { formatAmountShort } from "@/lib/money";
import { normalizeAddress, readAddressList } from "./read-address-list";
import { formatScore } from "./risk-score";
import type { ScreeningInput, ScreeningProvider, ScreeningResult } from "./screening-provider";

/**
 * The built-in scores, in hundredths. A denylisted sender is always held (no threshold is above 100);
 * the two rules add up, so a large first payment of a new customer reaches 100 while either alone
 * (60 or 40) stays under the default threshold of 80 (docs/compliance.md).
 */
export const DENYLISTED = 100_00;
export const LARGE_AMOUNT = 60_00;
export const NEW_CUSTOMER_LARGE = 40_00;

/**
 * Scores a payment against the operator's lists and rules: a sender on the denylist scores 100; a
 * payment whose senders are all on the allowlist scores 0 (the rules do not apply to it); otherwise
 * a payment of at least the currency's amount limit adds 60, and the first payment of a customer of
 * at least the currency's new-customer limit adds 40. Currencies without a limit skip that rule.
 */
export function listScreeningProvider(config: ScreeningConfig): ScreeningProvider {
  return {
    async score(input: ScreeningInput): Promise<ScreeningResult> {
      const senders = input.senders.map(normalizeAddress);
      if (config.denylistPath) {
        const denied = await readAddressList(config.denylistPath);
        const hit = senders.find((sender) => denied.has(sender));
        if (hit) return { score: formatScore(DENYLISTED), reasons: [`Sender ${hit} is on the denylist.`] };
      }
      if (config.allowlistPath && senders.length > 0) {
        const allowed = await readAddressList(config.allowlistPath);
        if (senders.every((sender) => allowed.has(sender)))
          return { score: "0", reasons: ["Sender is on the allowlist."] };
      }
      return scoreRules(config, input);
    },
  };
}

function scoreRules(config: ScreeningConfig, input: ScreeningInput): ScreeningResult {
  let hundredths = 0;
  const reasons: string[] = [];
  const largeLimit = config.amountLimits[input.currency];
  if (largeLimit !== undefined && input.amount >= largeLimit) {
    hundredths += LARGE_AMOUNT;
    reasons.push(`Amount at or above ${formatAmountShort(largeLimit)} ${input.currency}.`);
  }
  const newLimit = config.newCustomerLimits[input.currency];
  if (newLimit !== undefined && input.customer?.previousPayments === 0 && input.amount >= newLimit) {
    hundredths += NEW_CUSTOMER_LARGE;
    reasons.push(
      `First payment of a new customer at or above ${formatAmountShort(newLimit)} ${input.currency}.`,
    );
  }
  return { score: formatScore(Math.min(hundredths, DENYLISTED)), reasons };
}
