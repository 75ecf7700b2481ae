import type { FieldErrors, UseFormRegisterReturn } from "react-hook-form";
import { Field } from "./field";

/**
 * A password being chosen (sign up, reset): hidden input, the browser's new-password suggestion, and
 * the rule the API enforces (at least 10 characters) said before it is broken.
 */
export function NewPasswordField({
  label,
  name,
  errors,
  register,
}: {
  label: string;
  name: string;
  errors: FieldErrors;
  register: UseFormRegisterReturn;
}) {
  return (
    <Field
      label={label}
      name={name}
      type="password"
      errors={errors}
      register={register}
      autoComplete="new-password"
      hint="At least 10 characters."
    />
  );
}
