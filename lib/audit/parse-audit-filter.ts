import "server-only";

import { fieldError } from "@/lib/errors";
import type { AuditFilter } from "./list-audit-entries";
import { AUDIT_ACTIONS } from "./record-audit-entry";

function parseDate(text: string | null, field: string): Date | undefined {
  if (!text) return undefined;
  const date = new Date(text);
  // Years past 9999 do not fit a timestamptz's text form: refused like any other bad date.
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 || date.getUTCFullYear() < 1)
    throw fieldError({ [field]: "Enter a date such as 2026-11-24." });
  return date;
}

/** The audit page's filter from its query string; anything unreadable is a 400 naming the field. */
export function parseAuditFilter(query: URLSearchParams): { filter: AuditFilter; page: number } {
  const action = query.get("action") || undefined;
  if (action && !(AUDIT_ACTIONS as readonly string[]).includes(action))
    throw fieldError({ action: "Choose one of the listed actions." });
  const actor = query.get("actor")?.trim().slice(0, 200) || undefined;
  const pageText = query.get("page") ?? "1";
  const page = Number(pageText);
  if (!/^\d{1,6}$/.test(pageText) || page < 1)
    throw fieldError({ page: "The page is a whole number from 1." });
  return {
    filter: {
      action,
      actor,
      from: parseDate(query.get("from"), "from"),
      to: parseDate(query.get("to"), "to"),
    },
    page,
  };
}
