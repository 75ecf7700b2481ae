/**
 * `text` without its trailing "0" characters, in linear time. A regular expression such as
 * `/0+$/` backtracks on a long run of zeros followed by another digit (quadratic), and request
 * bodies carry number literals of the client's choosing: 64 KB of "1.000…01" blocked the event
 * loop for seconds.
 */
export function withoutTrailingZeros(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x30) end--;
  return text.slice(0, end);
}

/** U+202F, the narrow no-break space: groups digits without reading as a decimal mark in any locale. */
export const DIGIT_GROUP_SEPARATOR = "\u202f";

/**
 * A decimal text with its whole part in groups of three ("1234567.5" → "1 234 567.5", narrow
 * spaces). A space, unlike a comma or a period, cannot be mistaken for the decimal mark, so an
 * amount read in either convention means the same; the fraction is left as it is.
 */
export function groupDigits(decimal: string): string {
  const match = /^(-?)(\d+)(.*)$/s.exec(decimal);
  if (!match) return decimal;
  const [, sign, whole, rest] = match;
  let grouped = "";
  for (let end = whole!.length; end > 0; end -= 3) {
    grouped = whole!.slice(Math.max(0, end - 3), end) + (grouped && DIGIT_GROUP_SEPARATOR + grouped);
  }
  return `${sign}${grouped}${rest}`;
}
