"use client";

import Link from "next/link";
import { useState } from "react";
import type { z } from "zod";
import { buttonClass, Field } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { dashboardFetch } from "@/components/query/dashboard-fetch";
import type { passwordResetRequest } from "@/lib/schemas/auth";

const schema = formSchema(() => import("@/lib/schemas/auth").then((m) => m.passwordResetRequest));

export function ForgotPasswordForm() {
  const form = useKassaForm<z.input<typeof passwordResetRequest>>(schema);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = form.submitWith(async (values) => {
    await dashboardFetch("/api/dashboard/password-reset", { body: values });
    setSentTo(values.email);
  });
  const { errors, isSubmitting } = form.formState;
  if (sentTo)
    return (
      <section className="mt-6" aria-live="polite">
        <h1 className="text-2xl font-bold tracking-tight">Check your e-mail</h1>
        <p className="mt-4">
          If <strong>{sentTo}</strong> has a Kassa account, a link to choose a new password is on its way. It
          works once, for 30 minutes.
        </p>
        <p className="mt-4 text-sm">
          <Link href="/login" className="text-indigo-700 underline dark:text-indigo-300">
            Back to sign in
          </Link>
        </p>
      </section>
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
      <FormError message={form.formError} />
      <button type="submit" disabled={isSubmitting} className={`mt-4 w-full ${buttonClass}`}>
        {isSubmitting ? "Sending…" : "Send the link"}
      </button>
      <p className="mt-4 text-sm">
        <Link href="/login" className="text-indigo-700 underline dark:text-indigo-300">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
