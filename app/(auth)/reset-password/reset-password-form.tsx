"use client";

import Link from "next/link";
import { formSchema } from "@/components/forms/form-schema";
import { LinkPasswordForm } from "../link-password-form";

const schema = formSchema(() => import("@/lib/schemas/auth").then((m) => m.passwordResetConfirm));

const link = "text-indigo-700 underline dark:text-indigo-300";

export function ResetPasswordForm() {
  return (
    <LinkPasswordForm
      schema={schema}
      path="/api/dashboard/password-reset/confirm"
      title="Choose a new password"
      passwordLabel="New password"
      submitLabel="Set the new password"
      busyLabel="Saving…"
      done={{
        title: "Password changed",
        text: "Every session of your account has ended. Sign in with the new password.",
      }}
      incomplete={
        <>
          Open the link from the e-mail as it is, or{" "}
          <Link href="/forgot-password" className={link}>
            ask for a new one
          </Link>
          .
        </>
      }
      tokenAdvice={
        <>
          <Link href="/forgot-password" className={link}>
            Ask for a new link
          </Link>
          .
        </>
      }
    />
  );
}
