import { buttonClass } from "./field";
import { FormError } from "./form-error";

/** The end of a one-column form: what went wrong as a whole, then its full-width submit button. */
export function FormSubmit({
  error,
  isSubmitting,
  label,
  busyLabel,
}: {
  error: string | null | undefined;
  isSubmitting: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <>
      <FormError message={error} />
      <button type="submit" disabled={isSubmitting} className={`mt-4 w-full ${buttonClass}`}>
        {isSubmitting ? busyLabel : label}
      </button>
    </>
  );
}
