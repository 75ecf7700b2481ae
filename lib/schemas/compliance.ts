import { z } from "zod";
/** Dashboard: release or reject a payment held for compliance review. */
export const reviewDecisionRequest = z.object({});

/** Dashboard: the score from which payments wait for review. */
export const reviewThresholdRequest = z.object({
  threshold: z.string().trim().min(1, "Type a score from 0 to 100.").max(10),
});
