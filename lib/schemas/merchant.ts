import { z } from "zod";
import "./messages";

/** Sign-up and `cli merchants create` share this schema. */
export const createMerchantInput = z.object({
  name: z.string().trim().min(1).max(120),
  email: z.email().max(254),
  password: z.string().min(10, { error: "The :attribute must be at least 10 characters." }).max(200),
});
export type CreateMerchantInput = z.infer<typeof createMerchantInput>;
