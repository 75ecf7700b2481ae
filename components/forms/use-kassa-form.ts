"use client";

import { useEffect } from "react";
import {
  type FieldErrors,
  type FieldValues,
  type Resolver,
  type UseFormProps,
  useForm,
} from "react-hook-form";
import type { z } from "zod";
import { DashboardRequestError } from "@/lib/dashboard/client-api";

/** Dotted field errors ("sender_data.first_name") as react-hook-form's nested error object. */
function nest(fields: Record<string, string>): FieldErrors {
  const errors: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(fields)) {
    const keys = path.split(".");
    let node = errors;
    for (const key of keys.slice(0, -1)) {
      if (!node[key]) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys.at(-1)!] = { type: "validation", message };
  }
  return errors as FieldErrors;
}

/** HTML inputs give "" for "nothing entered": the API's "field absent". */
export function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value) || value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== "" && v !== undefined)
      .map(([k, v]) => [k, withoutEmpty(v)]),
  );
}

/** Loads an endpoint's zod schema: `() => import("@/lib/schemas/x").then((m) => m.schema)`, kept at module level. */
export type SchemaLoader = () => Promise<z.ZodType>;
type Validate = (values: unknown) => Record<string, string> | undefined;

const validators = new WeakMap<SchemaLoader, Promise<Validate>>();

/**
 * zod and the schemas are ~45 KB gzipped, more than the rest of a form page's own code: they are
 * loaded right after the page shows (and awaited by the first validation if it comes sooner), not
 * in its first-load JavaScript.
 */
function validatorFor(load: SchemaLoader): Promise<Validate> {
  let validator = validators.get(load);
  if (!validator) {
    validator = Promise.all([load(), import("@/lib/schemas/messages")]).then(
      ([schema, { toFieldErrors }]) => {
        return (values: unknown) => {
          const parsed = schema.safeParse(values);
          return parsed.success ? undefined : toFieldErrors(parsed.error);
        };
      },
    );
    validators.set(load, validator);
  }
  return validator;
}

/**
 * A form validated by the same zod schema as the API endpoint it posts to, with the same messages
 * (see lib/schemas/messages.ts). Values are submitted as typed; the server parses them again.
 */
export function useKassaForm<Values extends FieldValues>(
  loadSchema: SchemaLoader,
  options: UseFormProps<Values> = {},
) {
  useEffect(() => {
    validatorFor(loadSchema).catch(() => {}); // a failed load is retried by the first validation
  }, [loadSchema]);
  const resolver: Resolver<Values> = async (values) => {
    let validate: Validate;
    try {
      validate = await validatorFor(loadSchema);
    } catch {
      validators.delete(loadSchema);
      return { values, errors: {} }; // offline for a moment: the server validates the same rules
    }
    const fields = validate(withoutEmpty(values));
    if (!fields) return { values, errors: {} };
    return { values: {}, errors: nest(fields) as FieldErrors<Values> };
  };
  const form = useForm<Values>({ mode: "onTouched", ...options, resolver });
  /** Puts the server's field errors on their fields, or returns the message for the whole form. */
  const applyServerError = (error: unknown): string => {
    if (!(error instanceof DashboardRequestError)) return "Something went wrong. Try again.";
    const entries = Object.entries(error.fields);
    for (const [field, message] of entries) form.setError(field as never, { type: "server", message });
    return entries.length ? "Check the highlighted fields." : error.message;
  };
  return { ...form, applyServerError };
}
