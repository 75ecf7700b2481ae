import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonSyntaxError, parseJson } from "@/lib/json";

describe("strict JSON reader", () => {
  it("agrees with JSON.parse on everything JSON.stringify writes (numbers that round-trip)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const text = JSON.stringify(value);
        const ours = parseJson(text);
        // Numbers whose shortest text is the literal stay numbers, so the results are identical.
        expect(ours).toStrictEqual(JSON.parse(text));
      }),
    );
  });

  it("keeps the exact digits of numbers a double would change", () => {
    expect(parseJson('{"amount": 1.50}')).toEqual({ amount: "1.50" });
    expect(parseJson('{"amount": 0.0000001}')).toEqual({ amount: "0.0000001" });
    expect(parseJson('{"amount": 12345678901234.12345678}')).toEqual({ amount: "12345678901234.12345678" });
    expect(parseJson('{"amount": 12.5}')).toEqual({ amount: 12.5 });
    expect(parseJson('{"id": 42}')).toEqual({ id: 42 });
  });

  it("rejects malformed JSON, duplicate keys and deep nesting", () => {
    for (const bad of [
      '{"a":1,}',
      "{'a':1}",
      '{"a":1} x',
      '{"a":01}',
      '{"a":1,"a":2}',
      "[".repeat(40) + "]".repeat(40),
      '"\u0001"',
      "NaN",
      "",
    ]) {
      expect(() => parseJson(bad), bad).toThrow(JsonSyntaxError);
    }
  });

  it("refuses NUL characters, which PostgreSQL text cannot store", () => {
    expect(() => parseJson('{"foreign_id":"\\u0000"}')).toThrow(/NUL/);
    expect(parseJson('{"a":"\\u0001"}')).toEqual({ a: "\u0001" });
  });

  it("treats __proto__ as an ordinary key, never as a prototype", () => {
    const value = parseJson('{"__proto__": {"isAdmin": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect(Object.keys(value)).toEqual(["__proto__"]);
  });

  it("decodes escapes and unicode", () => {
    expect(parseJson('"a\\n\\u00e9\\ud83d\\ude00"')).toBe("a\né😀");
  });
});
