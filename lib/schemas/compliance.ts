import { z } from "zod";
import { secondFactorFields } from "./withdrawals";

/** Dashboard: release or reject a payment held for compliance review (asks for the second factor). */
export const reviewDecisionRequest = z.object(secondFactorFields);

/** Dashboard: the score from which payments wait for review (asks for the second factor). */
export const reviewThresholdRequest = z.object({
  threshold: z.string().trim().min(1, "Type a score from 0 to 100.").max(10),
  ...secondFactorFields,
});
