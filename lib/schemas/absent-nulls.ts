import "server-only";

import type { z } from "zod";

/**
 * Optional fields sent as `null` mean absent (DESIGN.md section 8): before parsing, a `null` under a
 * key the endpoint's schema marks optional (and not nullable) is removed; required fields and
 * values the schema does not describe stay as sent. docs/decisions/optional-nulls.md.
 */
export function withoutNullOptionals(schema: z.ZodType, value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const copy = { ...value };
  dropFrom(schema, copy);
  return copy;
}

/** A JSON object as lib/json builds it (not an array, not a JsonExactNumber). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  left?: z.ZodType;
  right?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  getter?: () => z.ZodType;
};

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The schema that describes the value's shape, past the wrappers that do not change it. */
function unwrap(schema: z.ZodType): z.ZodType {
  for (let current = schema; ; ) {
    const def = defOf(current);
    const next = def.innerType ?? def.in ?? def.getter?.();
    if (
      !next ||
      !["optional", "nullable", "default", "prefault", "readonly", "catch", "pipe", "lazy"].includes(def.type)
    )
      return current;
    current = next;
  }
}

/** Whether the field's own wrappers let null through (then null is a value, not an absence). */
function isNullable(schema: z.ZodType): boolean {
  for (let current: z.ZodType | undefined = schema; current; ) {
    const def = defOf(current);
    if (def.type === "nullable") return true;
    if (!["optional", "default", "prefault", "readonly"].includes(def.type)) return false;
    current = def.innerType;
  }
  return false;
}

/** Removes, in place, the nulls `schema` treats as absent from `object`, nested objects included. */
function dropFrom(schema: z.ZodType, object: Record<string, unknown>): void {
  const target = unwrap(schema);
  const def = defOf(target);
  if (def.type === "intersection") {
    dropFrom(def.left!, object);
    dropFrom(def.right!, object);
    return;
  }
  if (def.type === "union") {
    for (const option of matchingOptions(def, object)) dropFrom(option, object);
    return;
  }
  if (def.type !== "object" || !def.shape) return;
  for (const [key, field] of Object.entries(def.shape)) {
    if (!Object.hasOwn(object, key)) continue;
    const item = object[key];
    if (item === null) {
      if (field._zod.optin === "optional" && !isNullable(field)) delete object[key];
      continue;
    }
    if (isPlainObject(item)) {
      const nested = { ...item };
      dropFrom(field, nested);
      object[key] = nested;
    }
  }
}

/**
 * The options of a union that can describe `object`: for a discriminated union, those whose
 * discriminator accepts the value sent (all of them when none does, so the error names the field).
 */
function matchingOptions(def: Def, object: Record<string, unknown>): z.ZodType[] {
  const options = def.options ?? [];
  const key = def.discriminator;
  if (!key) return options;
  const matching = options.filter((option) => {
    const field = defOf(unwrap(option)).shape?.[key];
    return field?.safeParse(object[key]).success === true;
  });
  return matching.length > 0 ? matching : options;
}
