"use client";

import type { z } from "zod";
import { buttonClass, Field } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { NewPasswordField } from "@/components/forms/new-password-field";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { useChangePassword } from "@/components/query/use-settings";
import type { passwordRequest } from "@/lib/schemas/dashboard";
import { CustomerSettings } from "./customer-settings";
import { ReviewThreshold } from "./review-threshold";
import { TwoFactor } from "./two-factor";

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.passwordRequest));

function PasswordForm() {
  const isHydrated = useIsHydrated();
  const form = useKassaForm<z.input<typeof passwordRequest>>(schema);
  const changePassword = useChangePassword();
  const submit = form.submitWith(async (values) => {
    await changePassword.mutateAsync(values);
    form.reset();
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="password-title" className="max-w-md">
      <h2 id="password-title" className="text-xl font-semibold">
        Password
      </h2>
      <Field
        label="Current password"
        name="current_password"
        type="password"
        autoComplete="current-password"
        errors={errors}
        register={form.register("current_password")}
      />
      <NewPasswordField
        label="New password"
        name="new_password"
        errors={errors}
        register={form.register("new_password")}
      />
      <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-3 ${buttonClass}`}>
        {isSubmitting ? "Saving…" : "Change password"}
      </button>
      {changePassword.isSuccess && !form.formError && (
        <p aria-live="polite" className="mt-2 text-sm">
          Password changed.
        </p>
      )}
      <FormError message={form.formError} />
    </form>
  );
}

export function SettingsClient({
  hasTotp,
  reviewThreshold,
  customerSettings,
}: {
  hasTotp: boolean;
  /** Null for a role that may not change it (settings.manage). */
  reviewThreshold: string | null;
  /** Null for a role that may not change them (settings.manage). */
  customerSettings: { supportEmail: string; tolerancePercent: string } | null;
}) {
  return (
    <>
      <h1 className="mb-4 text-2xl font-bold tracking-tight">Settings</h1>
      <PasswordForm />
      <TwoFactor hasTotp={hasTotp} />
      {customerSettings !== null && <CustomerSettings {...customerSettings} />}
      {reviewThreshold !== null && <ReviewThreshold threshold={reviewThreshold} />}
    </>
  );
}
