import { type ZodError, z } from "zod";
import { JsonExactNumber } from "@/lib/json";

/**
 * Validation messages in the public API's style ("The foreign id field is required."). Schemas
 * and zod's defaults write ":attribute" where the field's name goes; toFieldErrors() fills it in
 * from the issue's final path, which is only known once parsing is done.
 */
z.config({
  // In the browser the pages' Content-Security-Policy (proxy.ts) refuses eval: without `jitless` zod
  // probes for it with `new Function`, which the browser reports as a violation even though zod
  // catches the refusal. The server keeps zod's compiled parsers.
  jitless: typeof window !== "undefined",
  customError: (issue) => {
    switch (issue.code) {
      case "invalid_type": {
        if (issue.input === undefined) return "The :attribute field is required.";
        if (issue.input === null) return "The :attribute field must not be null.";
        // A number with more digits than a double holds (lib/json): only amounts read those.
        if (issue.input instanceof JsonExactNumber) {
          return Number.isFinite(Number(issue.input.literal))
            ? "The :attribute has more significant digits than this field accepts."
            : "The :attribute is too large.";
        }
        const expected = issue.expected;
        if (expected === "string") return "The :attribute must be a string.";
        if (expected === "number" || expected === "int") return "The :attribute must be a number.";
        if (expected === "boolean") return "The :attribute field must be true or false.";
        if (expected === "object") return "The :attribute must be an object.";
        return "The :attribute is invalid.";
      }
      case "too_small":
        if (issue.origin === "string") {
          return issue.minimum === 1
            ? "The :attribute field is required."
            : `The :attribute must be at least ${issue.minimum} characters.`;
        }
        return `The :attribute must be at least ${issue.minimum}.`;
      case "too_big":
        if (issue.origin === "string")
          return `The :attribute may not be greater than ${issue.maximum} characters.`;
        return `The :attribute may not be greater than ${issue.maximum}.`;
      case "invalid_value":
        return "The selected :attribute is invalid.";
      case "invalid_format":
        if (issue.format === "email") return "The :attribute must be a valid email address.";
        return "The :attribute format is invalid.";
      case "invalid_union": {
        if (issue.input === undefined) return "The :attribute field is required.";
        if (issue.input === null) return "The :attribute field must not be null.";
        // A discriminated union reports a missing discriminator with the object and the key as the last path step.
        const key = issue.path?.[issue.path.length - 1];
        const input = issue.input as Record<PropertyKey, unknown> | null;
        if (key !== undefined && input && typeof input === "object" && input[key] === undefined) {
          return "The :attribute field is required.";
        }
        return "The selected :attribute is invalid.";
      }
      case "unrecognized_keys":
        return "The :attribute field is not allowed.";
      default:
        return undefined;
    }
  },
});

export function humanize(field: string): string {
  return field.replace(/_/g, " ");
}

/**
 * Turns a ZodError into `{ "dotted.field": "message" }`, the first message per field, as the
 * public API answers. Issues at the root (no path) are reported under "body".
 */
export function toFieldErrors(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const keys =
      issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of keys) {
      const name = path.length ? path.map(String).join(".") : "body";
      if (fields[name]) continue;
      const last = path.length ? String(path[path.length - 1]) : "body";
      fields[name] = issue.message.replaceAll(":attribute", humanize(last));
    }
  }
  return fields;
}
