import { z } from "zod";
import "./messages";

/** "Forgot password": the address to send a reset link to. */
export const passwordResetRequest = z.object({ email: z.email().max(254) });

/** A reset link's token (from the link's fragment) and the new password. */
export const passwordResetConfirm = z.object({
  token: z.string().min(1).max(200),
  password: z.string().min(10, { error: "The :attribute must be at least 10 characters." }).max(200),
});

/** A sign-up link's token. */
export const signUpConfirm = z.object({ token: z.string().min(1).max(200) });
