"use client";

import Link from "next/link";
import type { z } from "zod";
import { Field } from "@/components/forms/field";
import { formSchema } from "@/components/forms/form-schema";
import { FormSubmit } from "@/components/forms/form-submit";
import { MailInLogNote } from "@/components/mail-in-log-note";
import type { passwordResetRequest } from "@/lib/schemas/auth";
import { AuthNotice } from "../auth-notice";
import { useAuthForm } from "../use-auth-form";

const schema = formSchema(() => import("@/lib/schemas/auth").then((m) => m.passwordResetRequest));

const backToSignIn = (
  <p className="mt-4 text-sm">
    <Link href="/login" className="text-indigo-700 underline dark:text-indigo-300">
      Back to sign in
    </Link>
  </p>
);

export function ForgotPasswordForm({ isMailInLog }: { isMailInLog: boolean }) {
  const {
    form,
    submit,
    done: sentTo,
  } = useAuthForm<z.input<typeof passwordResetRequest>, string>(schema, {
    path: "/api/dashboard/password-reset",
    done: (values) => values.email,
  });
  const { errors, isSubmitting } = form.formState;
  if (sentTo)
    return (
      <AuthNotice title="Check your e-mail">
        <p className="mt-4">
          If <strong>{sentTo}</strong> has a Kassa account, a link to choose a new password is on its way. It
          works once, for 30 minutes.
        </p>
        {isMailInLog && <MailInLogNote />}
        {backToSignIn}
      </AuthNotice>
    );
  return (
    <form onSubmit={submit} className="mt-6" noValidate>
      <h1 className="text-2xl font-bold tracking-tight">Reset your password</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        Enter the e-mail you sign in with. We will send a link to choose a new password.
      </p>
      <Field
        label="E-mail"
        name="email"
        type="email"
        errors={errors}
        register={form.register("email")}
        autoComplete="email"
      />
      <FormSubmit
        error={form.formError}
        isSubmitting={isSubmitting}
        label="Send the link"
        busyLabel="Sending…"
      />
      {backToSignIn}
    </form>
  );
}
