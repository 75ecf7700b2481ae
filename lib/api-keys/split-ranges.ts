/**
 * An allowlist as typed: addresses or CIDR ranges separated by commas, spaces or lines. The
 * dashboard's form sends the pieces as the list, and the server splits each entry again, so an
 * API caller may send them either way.
 */
export function splitRanges(text: string): string[] {
  return text.split(/[\s,]+/).filter((piece) => piece.length > 0);
}
