import type { Metadata } from "next";
import { isMailPrintedToLog } from "@/lib/mail/is-mail-printed-to-log";
import { getConfig } from "@/lib/runtime";
import { ForgotPasswordForm } from "./forgot-password-form";

export const metadata: Metadata = { title: "Reset your password" };

export default function ForgotPasswordPage() {
  return <ForgotPasswordForm isMailInLog={isMailPrintedToLog(getConfig())} />;
}
