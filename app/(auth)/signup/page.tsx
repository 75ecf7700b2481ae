import type { Metadata } from "next";
import { isMailPrintedToLog } from "@/lib/mail/is-mail-printed-to-log";
import { getConfig } from "@/lib/runtime";
import { SignupForm } from "./signup-form";

export const metadata: Metadata = { title: "Create an account" };

export default function SignupPage() {
  return <SignupForm isMailInLog={isMailPrintedToLog(getConfig())} />;
}
