import "server-only";

import { parse } from "csv-parse/sync";
import { MAX_BATCH_ROWS } from "@/lib/schemas/payout-batches";
import type { BatchRow, RowError } from "./check-payout-batch";

/** The largest file a bulk payout takes: 1,000 payouts with every column filled fit in a third of it. */
export const MAX_CSV_BYTES = 1024 * 1024;

/**
 * The columns of a bulk payout file, in the template's order. `reference` is each payout's
 * foreign_id; `receiver_*` are the receiver's data, by its type (natural: first and last name and
 * date of birth; legal: legal name and country of registration; self: none).
 */
export const CSV_COLUMNS = [
  "reference",
  "currency",
  "amount",
  "amount_to",
  "convert_to",
  "address",
  "tag",
  "receiver_type",
  "receiver_first_name",
  "receiver_last_name",
  "receiver_date_of_birth",
  "receiver_email",
  "receiver_legal_name",
  "receiver_country_of_registration",
  "end_user_reference",
] as const;
type Column = (typeof CSV_COLUMNS)[number];

const REQUIRED: readonly Column[] = ["reference", "currency", "address", "receiver_type"];
const RECEIVER_FIELDS = {
  receiver_first_name: "first_name",
  receiver_last_name: "last_name",
  receiver_date_of_birth: "date_of_birth",
  receiver_email: "email",
  receiver_legal_name: "legal_name",
  receiver_country_of_registration: "country_of_registration",
} as const satisfies Partial<Record<Column, string>>;

/** The file's problem, when it cannot be read as payouts at all: nothing in it is checked further. */
export class PayoutCsvError extends Error {}

export type ParsedCsv = {
  /** Each payout with its line in the file (the header is line 1, the first payout line 2). */
  rows: BatchRow[];
  /** Problems found in reading cells (formulas), by line and column. */
  errors: RowError[];
};

const plural = (count: number, one: string) =>
  `${count.toLocaleString("en-US")} ${one}${count === 1 ? "" : "s"}`;

function decode(bytes: Uint8Array): string {
  if (bytes.length > MAX_CSV_BYTES)
    throw new PayoutCsvError(
      `The file is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; a bulk payout file may be at most 1 MB (${MAX_BATCH_ROWS.toLocaleString("en-US")} payouts). Split it into several files.`,
    );
  if (bytes.length === 0) throw new PayoutCsvError("The file is empty.");
  const isUtf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  try {
    if (isUtf16) throw new TypeError("UTF-16");
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new PayoutCsvError(
      'The file is not UTF-8 text. In your spreadsheet, save it as "CSV UTF-8 (comma delimited)" and upload it again.',
    );
  }
}

/**
 * A spreadsheet would run a cell starting with `=`, `+`, `@` (or `-` not followed by a number) as a
 * formula: such a cell is refused rather than guessed at (and would be dangerous in the result file).
 */
function looksLikeFormula(cell: string): boolean {
  if (/^[=+@\t\r]/.test(cell)) return true;
  return cell.startsWith("-") && !/^-\d/.test(cell);
}

/**
 * An amount cell of a semicolon-separated file, as spreadsheets in comma-decimal countries save it:
 * "12,50" is 12.50 (the text rewritten, never read as a float) and digit-group spaces are dropped.
 * A cell with both marks, or a comma-separated file's quoted "1,500", is left as written: which mark
 * is the decimal one would be a guess, and the amount's own check says the cell is not a number.
 */
function amountCell(cell: string | undefined, delimiter: string): string | undefined {
  if (cell === undefined || delimiter !== ";") return cell;
  const text = cell.replace(/[\s\u00a0\u202f]/g, "");
  if (text.includes(".") || (text.match(/,/g) ?? []).length !== 1) return text;
  return text.replace(",", ".");
}

/** The payout a line describes, as the API's row takes it; empty cells are absent values. */
function payoutOf(
  record: Record<string, string>,
  columns: readonly Column[],
  delimiter: string,
): Record<string, unknown> {
  const value = (column: Column) =>
    columns.includes(column) ? record[column]?.trim() || undefined : undefined;
  const receiverData: Record<string, string> = {};
  for (const [column, field] of Object.entries(RECEIVER_FIELDS)) {
    const cell = value(column as Column);
    if (cell !== undefined) receiverData[field] = cell;
  }
  return {
    foreign_id: value("reference"),
    currency: value("currency")?.toUpperCase(),
    amount: amountCell(value("amount"), delimiter),
    amount_to: amountCell(value("amount_to"), delimiter),
    convert_to: value("convert_to")?.toUpperCase(),
    address: value("address"),
    tag: value("tag"),
    receiver_type: value("receiver_type")?.toLowerCase(),
    receiver_data: Object.keys(receiverData).length > 0 ? receiverData : undefined,
    end_user_reference: value("end_user_reference"),
  };
}

/**
 * Reads a bulk payout file: UTF-8 text (a byte-order mark is fine), comma- or semicolon-separated
 * (as spreadsheets in many countries save, then with a comma as the decimal mark), a header line naming the columns (CSV_COLUMNS, any
 * order, any case), then at most 1,000 payouts. Throws PayoutCsvError for a file that cannot be
 * read as that; a cell written as a formula is an error of its line and column.
 */
export function parsePayoutCsv(bytes: Uint8Array): ParsedCsv {
  const text = decode(bytes).replace(/^\uFEFF/, "");
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = firstLine.includes(";") && !firstLine.includes(",") ? ";" : ",";
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      delimiter,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      info: true,
    }) as unknown as typeof records;
  } catch (error) {
    const { lines: line, code } = error as { lines?: number; code?: string };
    const why =
      code === "CSV_QUOTE_NOT_CLOSED"
        ? 'a cell opens a quote (") that is never closed'
        : code === "CSV_INVALID_CLOSING_QUOTE"
          ? "a quote closes in the middle of a cell"
          : "a line cannot be split into cells";
    throw new PayoutCsvError(`The file is not valid CSV${line ? ` (line ${line})` : ""}: ${why}.`);
  }
  const [first, ...lines] = records;
  if (!first) throw new PayoutCsvError("The file is empty.");
  const header = first.record;
  const names = header.map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new PayoutCsvError(
      `The first line must name the columns; ${unknown.map((n) => `"${n || "(empty)"}"`).join(", ")} ${unknown.length === 1 ? "is not one" : "are not"} of them. The columns are: ${CSV_COLUMNS.join(", ")}.`,
    );
  const twice = names.filter((name, index) => names.indexOf(name) !== index);
  if (twice.length > 0)
    throw new PayoutCsvError(`The column "${twice[0]}" is named twice in the first line.`);
  const missing = REQUIRED.filter((column) => !names.includes(column));
  if (!names.includes("amount") && !names.includes("amount_to")) missing.push("amount");
  if (missing.length > 0)
    throw new PayoutCsvError(
      `The file has no ${missing.map((m) => `"${m}"`).join(", ")} column${missing.length === 1 ? "" : "s"}. Start from the template: it names every column.`,
    );
  const payoutLines = lines.filter(({ record }) => record.some((cell) => cell.trim() !== ""));
  if (payoutLines.length === 0) throw new PayoutCsvError("The file names its columns but holds no payouts.");
  if (payoutLines.length > MAX_BATCH_ROWS)
    throw new PayoutCsvError(
      `The file holds ${plural(payoutLines.length, "payout")}; a bulk payout takes at most ${MAX_BATCH_ROWS.toLocaleString("en-US")}. Split it into several files.`,
    );

  const columns = names as Column[];
  const rows: BatchRow[] = [];
  const errors: RowError[] = [];
  for (const { record: cells, info } of payoutLines) {
    // The line the record ends on (the header is line 1); a line break inside a cell is refused below.
    const line = info.lines;
    if (cells.length > columns.length)
      errors.push({
        row: line,
        field: "line",
        message: `The line has ${cells.length} cells for ${columns.length} columns.`,
      });
    const record: Record<string, string> = {};
    columns.forEach((column, i) => {
      const cell = cells[i] ?? "";
      if (looksLikeFormula(cell.trim()))
        errors.push({
          row: line,
          field: column,
          message: `The cell starts with "${cell.trim()[0]}", as a spreadsheet formula does. Type the value itself.`,
        });
      else if (/[\r\n]/.test(cell))
        errors.push({ row: line, field: column, message: "The cell holds a line break." });
      else record[column] = cell;
    });
    rows.push({ row: line, payout: payoutOf(record, columns, delimiter) });
  }
  return { rows, errors };
}

/** The request field an error names, as the file's column (foreign_id is the `reference` column). */
export function columnOf(field: string): string {
  if (field === "foreign_id") return "reference";
  if (field.startsWith("receiver_data.")) return `receiver_${field.slice("receiver_data.".length)}`;
  if (field === "receiver_data") return "receiver_type";
  return field;
}

/** The template: the header line, every column named. */
export function payoutCsvTemplate(): string {
  return `${CSV_COLUMNS.join(",")}\r\n`;
}
