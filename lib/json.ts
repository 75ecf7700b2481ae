/**
 * A strict JSON reader for request bodies. JSON.parse loses the text of numbers (Node 20 has no
 * source-text access), so an amount like 12345678.123456789 would silently become a different
 * double. Here, a number literal whose text differs from the shortest text of its double is kept
 * as its exact source string; amount fields accept strings, so the client's digits are what we
 * validate. It also bounds nesting depth, and rejects duplicate keys (a classic request-smuggling
 * trick where the signature checker and the handler read different values).
 */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const MAX_DEPTH = 32;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

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
            const code = Number.parseInt(hex, 16);
            // PostgreSQL text cannot hold NUL; refusing it here gives the client a clear 400.
            if (code === 0) fail("NUL character (\\u0000) in string");
            out += String.fromCharCode(code);
            pos += 4;
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
        // defineProperty, not assignment: a "__proto__" key stays an ordinary own key.
        Object.defineProperty(object, key, {
          value: readValue(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
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
    const literal = match[0];
    const value = Number(literal);
    // Keep the exact digits when the double does not reproduce them (1.50, 0.0000001, long decimals).
    if (!Number.isFinite(value) || String(value) !== literal) return literal;
    return value;
  };

  const value = readValue(0);
  skip();
  if (pos !== text.length) fail("unexpected data after the JSON value");
  return value;
}
