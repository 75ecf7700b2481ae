"use client";

import type { FieldErrors, UseFormRegisterReturn } from "react-hook-form";
import { Field } from "@/components/forms/field";

/** The one input a sensitive change asks for: the authenticator code when two-factor sign-in is on, else the password. */
export function SecondFactorField({
  hasTotp,
  idPrefix,
  errors,
  register,
}: {
  hasTotp: boolean;
  idPrefix: string;
  errors: FieldErrors;
  register: (name: "code" | "password") => UseFormRegisterReturn;
}) {
  return hasTotp ? (
    <Field
      label="Code from your authenticator app"
      name="code"
      idPrefix={idPrefix}
      inputMode="numeric"
      autoComplete="one-time-code"
      errors={errors}
      register={register("code")}
    />
  ) : (
    <Field
      label="Your password, to confirm"
      name="password"
      type="password"
      idPrefix={idPrefix}
      autoComplete="current-password"
      hint="Turn on two-factor sign-in in Settings to confirm with a code instead."
      errors={errors}
      register={register("password")}
    />
  );
}
