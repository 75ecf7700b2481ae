import { z } from "zod";
import "./messages";

/** A percentage from 0 to 10 with at most two decimals: exactly a whole number of basis points. */
export const TOLERANCE_PERCENT_PATTERN = /^(10(\.0{1,2})?|\d(\.\d{1,2})?)$/;

/** Dashboard: the share of the amount due a payment may fall short by and still count as paid. */
export const underpaymentToleranceRequest = z.object({
  tolerance_percent: z
    .string()
    .trim()
    .regex(TOLERANCE_PERCENT_PATTERN, "Type a percentage from 0 to 10, with at most two decimals."),
});

/** Dashboard: where customers' replies go; empty removes it. */
export const supportEmailRequest = z.object({
  support_email: z.union([
    z.literal(""),
    z.string().trim().pipe(z.email("Type an e-mail address like support@example.com.").max(254)),
  ]),
});
