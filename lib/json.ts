import { withoutTrailingZeros } from "./digits";
import { unstorableTextReason } from "./unstorable-text";

/**
 * A strict JSON reader for request bodies. A number is read by its value whatever its spelling; one no double
 * holds exactly becomes a JsonExactNumber with the client's digits: amounts read it exactly, chosen ids keep
 * it as text (exactNumbersAsText), other fields refuse it. Duplicate keys, deep nesting, NUL and lone
 * surrogates are a JsonSyntaxError (400 `bad_content_format`). Why: docs/decisions/strict-json.md.
 */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

/**
 * A JSON number whose exact value a double cannot hold. `literal` is the number as sent (JSON
 * number grammar: optional minus, digits, fraction, exponent). Only amount schemas accept it.
 */
export class JsonExactNumber {
  constructor(readonly literal: string) {}

  toString(): string {
    return this.literal;
  }
}

/**
 * Sets `key` as an ordinary own property of a plain object. Assignment for every key but "__proto__",
 * which assigned would set the prototype; defineProperty for that one only (it costs a runtime call, about
 * a microsecond, on every key of every request body when used for all).
 */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/**
 * `value` with every JsonExactNumber replaced by its digits as a string: for identifiers the merchant
 * chose (a withdrawal's any-JSON `foreign_id`), which are echoed back and compared as text, so a
 * 20-digit order number keeps every digit (as JSON.parse could not) instead of being refused.
 */
export function exactNumbersAsText(value: unknown): unknown {
  if (value instanceof JsonExactNumber) return value.literal;
  if (Array.isArray(value)) return value.map(exactNumbersAsText);
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) setOwn(copy, key, exactNumbersAsText(item));
    return copy;
  }
  return value;
}

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonExactNumber
  | JsonValue[]
  | { [key: string]: JsonValue };

const MAX_DEPTH = 32;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER_PARTS = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A decimal literal's value as significant digits and a power of ten (no leading or trailing
 * zeros; zero is ""), so two spellings can be compared by value: "1.50" and "15e-1" are equal.
 */
function decimalValue(literal: string): { isNegative: boolean; digits: string; exponent: number } {
  const [, whole = "", fraction = "", exponentText = "0"] = NUMBER_PARTS.exec(literal) ?? [];
  const all = `${whole}${fraction}`;
  const trimmed = withoutTrailingZeros(all);
  const trailing = trimmed.length;
  const digits = trimmed.replace(/^0+/, "");
  return {
    isNegative: literal.startsWith("-") && digits !== "",
    digits,
    exponent: digits === "" ? 0 : Number(exponentText) - fraction.length + (all.length - trailing),
  };
}

/** The number a literal means when a double holds its exact value; a JsonExactNumber otherwise. */
function readNumber(literal: string): number | JsonExactNumber {
  const value = Number(literal);
  if (String(value) === literal) return value;
  if (!Number.isFinite(value)) return new JsonExactNumber(literal);
  const sent = decimalValue(literal);
  // Zero in any spelling ("0.0", "-0", "0e7") is zero.
  if (sent.digits === "") return value;
  const held = decimalValue(String(value));
  const isSame =
    sent.isNegative === held.isNegative && sent.digits === held.digits && sent.exponent === held.exponent;
  return isSame ? value : new JsonExactNumber(literal);
}

export function parseJson(text: string, maxDepth = MAX_DEPTH): JsonValue {
  let pos = 0;

  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at position ${pos}`);
  };
  const skip = () => {
    WHITESPACE.lastIndex = pos;
    WHITESPACE.exec(text);
    pos = WHITESPACE.lastIndex;
  };

  const readString = (): string => {
    // pos is at the opening quote
    let out = "";
    let start = ++pos;
    for (;;) {
      const code = text.charCodeAt(pos);
      if (Number.isNaN(code)) fail("unterminated string");
      if (code === 0x22) break;
      if (code < 0x20) fail("control character in string");
      if (code === 0x5c) {
        out += text.slice(start, pos);
        const escaped = text[pos + 1];
        pos += 2;
        switch (escaped) {
          case '"':
          case "\\":
          case "/":
            out += escaped;
            break;
          case "b":
            out += "\b";
            break;
          case "f":
            out += "\f";
            break;
          case "n":
            out += "\n";
            break;
          case "r":
            out += "\r";
            break;
          case "t":
            out += "\t";
            break;
          case "u": {
            const hex = text.slice(pos, pos + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad unicode escape");
            pos += 4;
            // A surrogate pair comes as two escapes ("\\ud83d\\ude00"): the string is checked whole.
            out += String.fromCharCode(Number.parseInt(hex, 16));
            break;
          }
          default:
            fail("bad escape");
        }
        start = pos;
        continue;
      }
      pos++;
    }
    out += text.slice(start, pos);
    pos++;
    const unstorable = unstorableTextReason(out);
    if (unstorable) fail(`${unstorable} in string`);
    return out;
  };

  const readValue = (depth: number): JsonValue => {
    skip();
    const ch = text[pos];
    if (ch === "{") {
      if (depth >= maxDepth) fail("nesting too deep");
      pos++;
      const object: { [key: string]: JsonValue } = {};
      skip();
      if (text[pos] === "}") {
        pos++;
        return object;
      }
      for (;;) {
        skip();
        if (text[pos] !== '"') fail("expected a key");
        const key = readString();
        if (Object.hasOwn(object, key)) fail(`duplicate key "${key.slice(0, 40)}"`);
        skip();
        if (text[pos] !== ":") fail("expected ':'");
        pos++;
        setOwn(object, key, readValue(depth + 1));
        skip();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "}") {
          pos++;
          return object;
        }
        fail("expected ',' or '}'");
      }
    }
    if (ch === "[") {
      if (depth >= maxDepth) fail("nesting too deep");
      pos++;
      const array: JsonValue[] = [];
      skip();
      if (text[pos] === "]") {
        pos++;
        return array;
      }
      for (;;) {
        array.push(readValue(depth + 1));
        skip();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "]") {
          pos++;
          return array;
        }
        fail("expected ',' or ']'");
      }
    }
    if (ch === '"') return readString();
    if (text.startsWith("true", pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith("false", pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith("null", pos)) {
      pos += 4;
      return null;
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (!match) return fail("unexpected token");
    pos = NUMBER.lastIndex;
    return readNumber(match[0]);
  };

  const value = readValue(0);
  skip();
  if (pos !== text.length) fail("unexpected data after the JSON value");
  return value;
}
