import "server-only";

import { fieldError } from "@/lib/errors";
import { expandTypeFilter, TRANSACTION_STATUSES, TRANSACTION_TYPES } from "./kinds";
import type { TransactionFilter } from "./list-transactions";

/** Filters reach no further back than this: nothing older exists, and year 0 is not a PostgreSQL date. */
const EARLIEST_YEAR = 1970;

/**
 * A `YYYY-MM-DD` bound as the start (or end) of that UTC day. Refused, as a field error: any other
 * shape, a day the calendar does not have (2024-02-30 would silently become March 1st), and years
 * before 1970, which the database would refuse mid-query (a 500, or an export cut off).
 */
function date(value: string | null, field: string, endOfDay: boolean): Date | undefined {
  if (!value) return undefined;
  const refuse = () => fieldError({ [field]: "Use a date in the form YYYY-MM-DD, from 1970 on." });
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match || Number(match[1]) < EARLIEST_YEAR) throw refuse();
  const parsed = new Date(`${value}T${endOfDay ? "23:59:59.999" : "00:00:00.000"}Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) throw refuse();
  return parsed;
}

/** The explorer's filter from a query string, with unknown values refused rather than ignored. */
export function parseFilter(query: URLSearchParams): { filter: TransactionFilter; before?: number } {
  const list = (name: string, allowed: string[]) => {
    const values = query
      .getAll(name)
      .flatMap((v) => v.split(","))
      .filter(Boolean);
    const unknown = values.find((v) => !allowed.includes(v));
    if (unknown) throw fieldError({ [name]: `Unknown ${name}: ${unknown.slice(0, 40)}.` });
    return values;
  };
  const before = query.get("before");
  if (before !== null && !/^\d{1,15}$/.test(before))
    throw fieldError({ before: "The page cursor is not valid." });
  const search = query.get("q")?.slice(0, 200);
  return {
    filter: {
      // "withdrawal" stands for every kind of payout (kinds.ts); the exact types are accepted too.
      types: expandTypeFilter(list("type", TRANSACTION_TYPES)),
      statuses: list("status", TRANSACTION_STATUSES),
      currency: query.get("currency")?.toUpperCase() || undefined,
      from: date(query.get("from"), "from", false),
      to: date(query.get("to"), "to", true),
      query: search || undefined,
    },
    before: before ? Number(before) : undefined,
  };
}
