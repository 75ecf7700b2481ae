import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exactNumbersAsText, JsonExactNumber, JsonSyntaxError, parseJson } from "@/lib/json";
import { hasUnstorableText } from "@/lib/unstorable-text";
import { isUndecodablePath } from "@/server/is-undecodable-path";

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

  it("reads numbers by value, whatever their spelling", () => {
    // Each spelling and the plain number it means, written out by hand.
    const spellings: [string, number][] = [
      ["5.0", 5],
      ["5e0", 5],
      ["50e-1", 5],
      ["1.50", 1.5],
      ["1e-05", 0.00001],
      ["1E-5", 0.00001],
      ["0.0000001", 0.0000001],
      ["100e-2", 1],
      ["1.5e+3", 1500],
      ["-2.50", -2.5],
      ["0.0", 0],
      ["0e7", 0],
    ];
    for (const [literal, expected] of spellings) {
      expect(parseJson(`{"n": ${literal}}`), literal).toStrictEqual({ n: expected });
    }
    expect(parseJson('{"id": 5.0}')).toStrictEqual({ id: 5 });
    expect(parseJson('{"foreign_id": 1.50}')).toStrictEqual({ foreign_id: 1.5 });
  });

  it("keeps the exact digits of numbers no double holds, as an exact number, not a string", () => {
    for (const literal of [
      "12345678.123456789",
      "12345678901234.12345678",
      "9007199254740993",
      "1e400",
      "1e-400",
      "0.1000000000000000000001",
    ]) {
      const value = (parseJson(`{"n": ${literal}}`) as { n: unknown }).n;
      expect(value, literal).toBeInstanceOf(JsonExactNumber);
      expect((value as JsonExactNumber).literal).toBe(literal);
    }
    // A plain double that is the exact value stays a number: 2^53 and 0.1 as written.
    expect(parseJson("9007199254740992")).toBe(9007199254740992);
    expect(parseJson("0.1")).toBe(0.1);
  });

  it("reads a megabyte-long number literal in one pass (a zero run once took minutes)", () => {
    // The old trailing-zero regular expression backtracked quadratically on "1.000…01": 64 KB
    // blocked the event loop for ~4 s, so a megabyte would take far past the test's timeout.
    const literal = `1.${"0".repeat(1_000_000)}1`;
    const value = parseJson(`{"amount": ${literal}}`) as { amount: JsonExactNumber };
    expect(value.amount).toBeInstanceOf(JsonExactNumber);
    expect(value.amount.literal).toBe(literal);
    expect(parseJson(`[1${"0".repeat(1_000_000)}e-1000000]`)).toEqual([1]);
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

  it("keeps keys that name Object.prototype's members as plain own values", () => {
    const value = parseJson('{"constructor": 1, "toString": "x", "hasOwnProperty": null}') as Record<
      string,
      unknown
    >;
    expect(Object.keys(value)).toEqual(["constructor", "toString", "hasOwnProperty"]);
    expect(Object.getOwnPropertyDescriptor(value, "toString")?.value).toBe("x");
    expect(Object.getOwnPropertyDescriptor(value, "constructor")?.value).toBe(1);
  });

  it("turns exact numbers into their digits in a copy that keeps every key its own, __proto__ too", () => {
    const copy = exactNumbersAsText(
      parseJson('{"id": 123456789012345678901, "__proto__": {"n": 98765432109876543210}, "list": [1.5, 2]}'),
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["id", "__proto__", "list"]);
    expect(copy.id).toBe("123456789012345678901");
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ n: "98765432109876543210" });
    expect(copy.list).toEqual([1.5, 2]);
  });

  it("decodes escapes and unicode", () => {
    expect(parseJson('"a\\n\\u00e9\\ud83d\\ude00"')).toBe("a\né😀");
    expect(parseJson('{"title": "\\uD83D\\uDE00 ok"}')).toEqual({ title: "\u{1F600} ok" });
  });

  it("refuses lone surrogates, which no database text can hold", () => {
    for (const bad of [
      '"\\ud800"',
      '"\\udc00"',
      '"x\\ud83d"',
      '"\\ud83dx"',
      '"\\ud83d\\u0041"',
      '"\\ud83d\\ud83d"',
      '"\\ude00\\ud83d"',
      '{"a": ["\\udfff"]}',
      '{"\\ud800": 1}',
      // Not reachable from UTF-8 bytes, but parseJson takes any string.
      '"\ud800"',
    ]) {
      expect(() => parseJson(bad), bad).toThrow(/surrogate/);
    }
  });
});

describe("hostile text outside bodies", () => {
  it("finds text PostgreSQL refuses in path parameters", () => {
    expect(hasUnstorableText("abc")).toBe(false);
    expect(hasUnstorableText("\u{1F600}")).toBe(false);
    expect(hasUnstorableText("a\u0000b")).toBe(true);
    expect(hasUnstorableText("\ud800")).toBe(true);
    expect(hasUnstorableText("x\udc00")).toBe(true);
    expect(hasUnstorableText("\ude00\ud83d")).toBe(true);
  });

  it("finds paths whose escapes are not UTF-8 (Next.js answered them with a 500)", () => {
    expect(isUndecodablePath("/pay/%FF")).toBe(true);
    expect(isUndecodablePath("/api/checkout/%ED%A0%80")).toBe(true); // a lone surrogate in UTF-8 form
    expect(isUndecodablePath("/api/dashboard/transactions/%C0%80")).toBe(true); // overlong NUL
    expect(isUndecodablePath("/pay/%F0%9F%98%80")).toBe(false);
    expect(isUndecodablePath("/pay/abc?q=%FF")).toBe(false); // query strings are decoded leniently
    expect(isUndecodablePath("/pay/%00")).toBe(false);
  });
});
