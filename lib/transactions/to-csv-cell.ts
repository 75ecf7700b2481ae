import "server-only";

/** A plain decimal number: the only text starting with `-` a spreadsheet may read as itself. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** First characters that make Excel, LibreOffice or Google Sheets evaluate a cell (OWASP's list, plus LF). */
const FORMULA_START = /^[=+\-@\t\r\n]/;

/**
 * One CSV cell: quoted, and never evaluated by a spreadsheet. A value starting with a formula
 * character gets a leading apostrophe, unless it is a plain number such as `-12.5`: `-2+3+cmd|...`
 * starts with a minus and a digit too, yet is a formula, so only the whole-number shape is exempt.
 */
export function toCsvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}
