import "server-only";

import { toCsvCell } from "@/lib/transactions/to-csv-cell";
import type { AuditEntry } from "./list-audit-entries";

const HEADER = ["id", "time", "actor", "address", "action", "detail"];

/** The audit trail as CSV, every cell formula-safe: actors and details carry merchant-chosen text. */
export function auditEntriesCsv(entries: AuditEntry[]): string {
  const lines = [HEADER.map(toCsvCell).join(",")];
  for (const e of entries) {
    lines.push(
      [e.id, e.occurredAt.toISOString(), e.actor, e.address ?? "", e.action, e.detail]
        .map(toCsvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
