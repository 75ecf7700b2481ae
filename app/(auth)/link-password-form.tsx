"use client";

import Link from "next/link";
import { type ReactNode, useEffect, useState } from "react";
import { buttonClass } from "@/components/forms/field";
import type { FormSchema } from "@/components/forms/form-schema";
import { FormSubmit } from "@/components/forms/form-submit";
import { NewPasswordField } from "@/components/forms/new-password-field";
import { AuthNotice } from "./auth-notice";
import { takeLinkToken } from "./take-link-token";
import { useAuthForm } from "./use-auth-form";

/** What a link that sets a password posts: its token and the password chosen. */
export type LinkPasswordValues = { token: string; password: string };

/**
 * What a link is for, asked of the server before the password is (`check`): the heading and
 * introduction to show, or why the link no longer works.
 */
export type LinkCheck =
  | { isUsable: true; title: string; intro: ReactNode }
  | { isUsable: false; reason: string };

/**
 * A password chosen from an e-mailed link (a password reset, a team invitation): the form holds the
 * link's token, taken out of the address bar; once the password is set, the way to sign in with it.
 * A link without a token says so (`incomplete`) instead of asking for a password it cannot set; a
 * token the server refuses is said over the button, with `tokenAdvice` after it.
 */
export function LinkPasswordForm({
  schema,
  path,
  title,
  intro,
  passwordLabel,
  submitLabel,
  busyLabel,
  done,
  incomplete,
  tokenAdvice,
  check,
}: {
  schema: FormSchema<LinkPasswordValues>;
  path: string;
  title: string;
  intro?: string;
  passwordLabel: string;
  submitLabel: string;
  busyLabel: string;
  done: { title: string; text: string };
  incomplete: ReactNode;
  tokenAdvice?: ReactNode;
  check?: (token: string) => Promise<LinkCheck>;
}) {
  const {
    form,
    submit,
    done: isDone,
  } = useAuthForm<LinkPasswordValues, boolean>(schema, {
    path,
    done: () => true,
    options: { defaultValues: { token: "", password: "" } },
  });
  const [hasToken, setHasToken] = useState<boolean | null>(null);
  const [checked, setChecked] = useState<LinkCheck | null>(null);
  useEffect(() => {
    const token = takeLinkToken();
    form.setValue("token", token);
    setHasToken(token !== "");
    if (token && check) check(token).then(setChecked);
  }, [form.setValue, check]);
  const { errors, isSubmitting } = form.formState;
  if (isDone)
    return (
      <AuthNotice title={done.title}>
        <p className="mt-4">{done.text}</p>
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
        <p className="mt-4">{incomplete}</p>
      </AuthNotice>
    );
  if (checked?.isUsable === false)
    return (
      <AuthNotice title="This link no longer works" isLive={false}>
        <p className="mt-4">{checked.reason}</p>
      </AuthNotice>
    );
  // Before the page runs (the token is read from the address bar then), and while the link is
  // checked: a form shown now would be replaced, and a password typed into it lost.
  if (hasToken === null || (check && !checked))
    return (
      <p role="status" aria-busy="true" className="mt-6 text-sm">
        Checking the link…
      </p>
    );
  const tokenError = errors.token?.message;
  return (
    <form onSubmit={submit} className="mt-6" noValidate>
      <h1 className="text-2xl font-bold tracking-tight">{checked?.title ?? title}</h1>
      {(checked?.intro ?? intro) && <p className="mt-2 text-sm">{checked?.intro ?? intro}</p>}
      <input type="hidden" {...form.register("token")} />
      <NewPasswordField
        label={passwordLabel}
        name="password"
        errors={errors}
        register={form.register("password")}
      />
      {tokenError && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {tokenError}
          {tokenAdvice && <> {tokenAdvice}</>}
        </p>
      )}
      <FormSubmit
        error={tokenError ? null : form.formError}
        isSubmitting={isSubmitting}
        label={submitLabel}
        busyLabel={busyLabel}
      />
    </form>
  );
}
