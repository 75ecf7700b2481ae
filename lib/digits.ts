/**
 * `text` without its trailing "0" characters, in linear time. A regular expression such as
 * `/0+$/` backtracks on a long run of zeros followed by another digit (quadratic), and request
 * bodies carry number literals of the client's choosing: 64 KB of "1.000…01" blocked the event
 * loop for seconds (issue 15).
 */
export function withoutTrailingZeros(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x30) end--;
  return text.slice(0, end);
}
