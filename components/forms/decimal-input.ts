/**
 * An amount as typed into a dashboard form, as the API reads decimals: a comma as the decimal mark
 * ("12,50" is 12.50, exactly: the text is rewritten, never read as a float) and digit-group spaces
 * (as the dashboard shows amounts) dropped. Text with both a comma and a period is left as typed:
 * which one is the decimal mark is a guess the merchant must settle, and the schema says so.
 */
export function decimalFromInput(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.replace(/[\s\u00a0\u202f]/g, "");
  if (text.includes(".") || (text.match(/,/g) ?? []).length !== 1) return text;
  return text.replace(",", ".");
}
