/**
 * The one way the dashboard writes a moment: UTC, to the second, always labelled, so the list and
 * the detail page of the same event show the same clock whatever the browser's or the server's zone
 * (a merchant reading "14:05" must never have to guess which 14:05). Server and client components
 * both call it, so it renders identically on either side and hydration never disagrees. CSV exports
 * keep plain ISO 8601 (`toISOString`), which spreadsheets and scripts parse.
 */
export const DISPLAY_TIME_ZONE = "UTC";

export function formatDateTime(value: Date | string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "—";
  return `${date.toISOString().slice(0, 19).replace("T", " ")} ${DISPLAY_TIME_ZONE}`;
}
