"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import type { z } from "zod";
import { buttonClass } from "@/components/forms/field";
import { formSchema } from "@/components/forms/form-schema";
import { FormSubmit } from "@/components/forms/form-submit";
import { NewPasswordField } from "@/components/forms/new-password-field";
import type { acceptInvitationRequest } from "@/lib/schemas/team";
import { AuthNotice } from "../auth-notice";
import { takeLinkToken } from "../take-link-token";
import { useAuthForm } from "../use-auth-form";

const schema = formSchema(() => import("@/lib/schemas/team").then((m) => m.acceptInvitationRequest));

/** Accepting an invitation: the invitee chooses a password, then signs in to the team's dashboard. */
export function JoinForm() {
  const {
    form,
    submit,
    done: isDone,
  } = useAuthForm<z.input<typeof acceptInvitationRequest>, boolean>(schema, {
    path: "/api/dashboard/team/join",
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
      <AuthNotice title="You joined the team">
        <p className="mt-4">Your account is ready. Sign in with your e-mail address and the new password.</p>
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
          Open the link from the invitation e-mail as it is, or ask the team for a new one.
        </p>
      </AuthNotice>
    );
  const tokenError = errors.token?.message;
  return (
    <form onSubmit={submit} className="mt-6" noValidate>
      <h1 className="text-2xl font-bold tracking-tight">Join your team</h1>
      <p className="mt-2 text-sm">Choose a password for your Kassa account. The invitation works once.</p>
      <input type="hidden" {...form.register("token")} />
      <NewPasswordField
        label="Password"
        name="password"
        errors={errors}
        register={form.register("password")}
      />
      {tokenError && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {tokenError}
        </p>
      )}
      <FormSubmit
        error={tokenError ? null : form.formError}
        isSubmitting={isSubmitting}
        label="Join"
        busyLabel="Joining…"
      />
    </form>
  );
}
