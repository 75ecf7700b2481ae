import "server-only";

import { z } from "zod";
import "./messages";

/** POST /api/refund/<token>: the customer's claim. The coin and address are checked against the refund and the network. */
export const claimRefundRequest = z.object({
  currency: z.string().trim().min(1).max(16),
  address: z.string().trim().min(1).max(200),
  tag: z.string().trim().max(100).optional(),
});
