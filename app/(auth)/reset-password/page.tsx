import type { Metadata } from "next";
import { ResetPasswordForm } from "./reset-password-form";

export const metadata: Metadata = { title: "Choose a new password" };

/** The link's token travels in the fragment (`#token=…`), so it never reaches a server log or a Referer. */
export default function ResetPasswordPage() {
  return <ResetPasswordForm />;
}
