import { DashboardRequestError } from "@/components/query/dashboard-fetch";

/**
 * The message for the whole form from a failed dashboard request: the API's top-level `error`, or,
 * where the form has no field to show them on, its first field message.
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof DashboardRequestError)) return "Something went wrong. Try again.";
  return Object.values(error.fields)[0] ?? error.message;
}

/** The one place a dashboard form shows what went wrong as a whole; field errors go under their fields (Field). */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
      {message}
    </p>
  );
}
