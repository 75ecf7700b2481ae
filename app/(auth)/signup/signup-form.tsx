"use client";

import Link from "next/link";
import type { z } from "zod";
import { Field } from "@/components/forms/field";
import { formSchema } from "@/components/forms/form-schema";
import { FormSubmit } from "@/components/forms/form-submit";
import { NewPasswordField } from "@/components/forms/new-password-field";
import { MailInLogNote } from "@/components/mail-in-log-note";
import type { createMerchantInput } from "@/lib/schemas/merchant";
import { AuthNotice } from "../auth-notice";
import { useAuthForm } from "../use-auth-form";

const schema = formSchema(() => import("@/lib/schemas/merchant").then((m) => m.createMerchantInput));

export function SignupForm({ isMailInLog }: { isMailInLog: boolean }) {
  const {
    form,
    submit,
    done: sentTo,
  } = useAuthForm<z.input<typeof createMerchantInput>, string>(schema, {
    path: "/api/dashboard/signup",
    done: (values) => values.email,
  });
  const { errors, isSubmitting } = form.formState;
  // The same words whether or not the address already had an account: the e-mail tells its owner which.
  if (sentTo)
    return (
      <AuthNotice title="Check your e-mail">
        <p className="mt-4">
          We sent a message to <strong>{sentTo}</strong>. Open the link in it to finish creating your account;
          it works once, for 24 hours.
        </p>
        {isMailInLog && <MailInLogNote />}
      </AuthNotice>
    );
  return (
    <form onSubmit={submit} className="mt-6" noValidate>
      <h1 className="text-2xl font-bold tracking-tight">Create your Kassa account</h1>
      <Field
        label="Business name"
        name="name"
        errors={errors}
        register={form.register("name")}
        autoComplete="organization"
      />
      <Field
        label="E-mail"
        name="email"
        type="email"
        errors={errors}
        register={form.register("email")}
        autoComplete="email"
      />
      <NewPasswordField
        label="Password"
        name="password"
        errors={errors}
        register={form.register("password")}
      />
      <FormSubmit
        error={form.formError}
        isSubmitting={isSubmitting}
        label="Create account"
        busyLabel="Creating your account…"
      />
      <p className="mt-4 text-sm">
        Already have an account?{" "}
        <Link href="/login" className="text-indigo-700 underline dark:text-indigo-300">
          Sign in
        </Link>
      </p>
    </form>
  );
}
