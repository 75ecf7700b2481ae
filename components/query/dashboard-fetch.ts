import { askStepUp } from "@/components/step-up/ask-step-up";

/**
 * The dashboard's fetch: JSON in and out, and an error carrying the dashboard API's error shape
 * (`{ error, code, fields? }`, lib/api/with-session.ts). Browser-only: a 401 sends the merchant to
 * the sign-in page.
 */
export class DashboardRequestError extends Error {
  constructor(
    /** The HTTP status; 0 when Kassa could not be reached at all. */
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    /** The dashboard API's error code (`confirmation_required`, `forbidden`, ...), when it sent one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = "DashboardRequestError";
  }

  /** A network failure or a server fault: asking again may work, unlike a refusal (4xx). */
  get isTransient(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

/** The message of a sensitive change the user chose not to confirm. */
export const NOT_CONFIRMED_MESSAGE = "Not changed: the change was not confirmed.";

/**
 * A sensitive change refused with `confirmation_required` opens the confirmation dialog
 * (components/step-up) and, once the user confirmed, is sent once more.
 */
export async function dashboardFetch<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  try {
    return await sendOnce<T>(path, init);
  } catch (error) {
    if (!(error instanceof DashboardRequestError) || error.code !== "confirmation_required") throw error;
    if (!(await askStepUp()))
      throw new DashboardRequestError(403, NOT_CONFIRMED_MESSAGE, {}, "not_confirmed");
    return sendOnce<T>(path, init);
  }
}

async function sendOnce<T>(path: string, init: { method?: string; body?: unknown }): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: init.body === undefined ? undefined : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      cache: "no-store",
    });
  } catch {
    throw new DashboardRequestError(0, "Kassa could not be reached. Check your connection and try again.");
  }
  const payload = await response.json().catch(() => ({}));
  if (!response.ok) {
    if (response.status === 401) window.location.assign("/login");
    throw new DashboardRequestError(
      response.status,
      payload.error ?? "Something went wrong.",
      payload.fields ?? payload.errors ?? {},
      typeof payload.code === "string" ? payload.code : undefined,
    );
  }
  return payload as T;
}
