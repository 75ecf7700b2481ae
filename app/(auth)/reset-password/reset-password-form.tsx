"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import type { z } from "zod";
import { buttonClass } from "@/components/forms/field";
import { formSchema } from "@/components/forms/form-schema";
import { FormSubmit } from "@/components/forms/form-submit";
import { NewPasswordField } from "@/components/forms/new-password-field";
import type { passwordResetConfirm } from "@/lib/schemas/auth";
import { AuthNotice } from "../auth-notice";
import { takeLinkToken } from "../take-link-token";
import { useAuthForm } from "../use-auth-form";

const schema = formSchema(() => import("@/lib/schemas/auth").then((m) => m.passwordResetConfirm));

const link = "text-indigo-700 underline dark:text-indigo-300";

export function ResetPasswordForm() {
  const {
    form,
    submit,
    done: isDone,
  } = useAuthForm<z.input<typeof passwordResetConfirm>, boolean>(schema, {
    path: "/api/dashboard/password-reset/confirm",
    done: () => true,
    options: { defaultValues: { token: "", password: "" } },
  });
  const [hasToken, setHasToken] = useState<boolean | null>(null);
  useEffect(() => {
    const token = takeLinkToken();
    form.setValue("token", token);
    setHasToken(token !== "");
  }, [form.setValue]);
  const { errors, isSubmitting } = form.formState;
  if (isDone)
    return (
      <AuthNotice title="Password changed">
        <p className="mt-4">Every session of your account has ended. Sign in with the new password.</p>
        <p className="mt-4">
          <Link href="/login" className={`block w-full text-center ${buttonClass}`}>
            Sign in
          </Link>
        </p>
      </AuthNotice>
    );
  if (hasToken === false)
    return (
      <AuthNotice title="This link is incomplete" isLive={false}>
        <p className="mt-4">
          Open the link from the e-mail as it is, or{" "}
          <Link href="/forgot-password" className={link}>
            ask for a new one
          </Link>
          .
        </p>
      </AuthNotice>
    );
  const tokenError = errors.token?.message;
  return (
    <form onSubmit={submit} className="mt-6" noValidate>
      <h1 className="text-2xl font-bold tracking-tight">Choose a new password</h1>
      <input type="hidden" {...form.register("token")} />
      <NewPasswordField
        label="New password"
        name="password"
        errors={errors}
        register={form.register("password")}
      />
      {tokenError && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {tokenError}{" "}
          <Link href="/forgot-password" className={link}>
            Ask for a new link
          </Link>
          .
        </p>
      )}
      <FormSubmit
        error={tokenError ? null : form.formError}
        isSubmitting={isSubmitting}
        label="Set the new password"
        busyLabel="Saving…"
      />
    </form>
  );
}
