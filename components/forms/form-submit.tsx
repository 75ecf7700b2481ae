import { buttonClass } from "./field";
import { FormError } from "./form-error";
import { useIsHydrated } from "./use-is-hydrated";

/**
 * The end of a one-column form: what went wrong as a whole, then its full-width submit button, which
 * waits for the page's script (useIsHydrated).
 */
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
  const isHydrated = useIsHydrated();
  return (
    <>
      <FormError message={error} />
      <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-4 w-full ${buttonClass}`}>
        {isSubmitting ? busyLabel : label}
      </button>
    </>
  );
}
