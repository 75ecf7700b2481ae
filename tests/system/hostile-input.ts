import fc from "fast-check";

/** Generators of hostile request bodies, shared by the fuzz tests of the three faces. */

/** Cases per endpoint: a short run in `npm test`, 10,000 in `npm run fuzz`. */
export const RUNS = Number(process.env.KASSA_FUZZ_RUNS ?? 25);

export const hostileValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ minLength: 5_000, maxLength: 70_000 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\uFEFF",
    "𝟘𝟙",
    "0x10",
    "1e400",
    "-0",
    "NaN",
    "Infinity",
    "../../etc/passwd",
    "<script>",
    "' OR 1=1 --",
    // Half a character: JSON.stringify writes it as the escape "\ud800", which PostgreSQL refuses.
    "\ud800",
    "x\udfff",
    "\ud83d\ude00",
  ),
  fc.constantFrom(0, -1, 1e308, -1e308, 5e-324, 2 ** 53 + 1, 0.1 + 0.2, Number("99999999999999999999")),
  fc.boolean(),
  fc.constant(null),
  fc.json({ maxDepth: 3 }).map((text) => JSON.parse(text)),
  fc.array(fc.integer(), { maxLength: 5 }),
  fc.constant(Array.from({ length: 50 }).reduce<unknown>((inner) => [inner], 1)),
);

const hostileKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("__proto__", "constructor", "prototype", "", "a.b", "toString"),
);

/** A valid body with one to three mutations: a field dropped, replaced by something hostile, or an extra field. */
export function mutated(valid: Record<string, unknown>) {
  const keys = Object.keys(valid);
  const add = fc.record({ kind: fc.constant("add" as const), key: hostileKey, value: hostileValue });
  const mutation = keys.length
    ? fc.oneof(
        fc.record({ kind: fc.constant("drop" as const), key: fc.constantFrom(...keys) }),
        fc.record({
          kind: fc.constant("replace" as const),
          key: fc.constantFrom(...keys),
          value: hostileValue,
        }),
        add,
      )
    : add;
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    const body: Record<string, unknown> = structuredClone(valid);
    for (const m of mutations) {
      if (m.kind === "drop") delete body[m.key];
      else
        Object.defineProperty(body, m.key, {
          value: m.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return JSON.stringify(body);
  });
}

export const rawBodies = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.constantFrom(
    "",
    "{",
    "[]",
    "null",
    "5.0",
    '{"a":1,"a":2}',
    `{"x":${"[".repeat(100)}${"]".repeat(100)}}`,
    '{"id": 5.0, "amount": 1e-05, "count": 1e400, "currency": "BTC"}',
    '{"amount": 12345678.123456789, "currency": "BTC", "convert_to": "ETH"}',
    '{"currency": "\\ud800", "title": "\\udc00\\ud800"}',
  ),
);
