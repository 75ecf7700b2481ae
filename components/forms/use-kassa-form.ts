"use client";

import {
  type FieldErrors,
  type FieldValues,
  type Resolver,
  type UseFormProps,
  useForm,
} from "react-hook-form";
import type { z } from "zod";
import { DashboardRequestError } from "@/lib/dashboard/client-api";
import { toFieldErrors } from "@/lib/schemas/messages";

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

/**
 * A form validated by the same zod schema as the API endpoint it posts to, with the same messages
 * (see lib/schemas/messages.ts). Values are submitted as typed; the server parses them again.
 */
export function useKassaForm<Values extends FieldValues>(
  schema: z.ZodType,
  options: UseFormProps<Values> = {},
) {
  const resolver: Resolver<Values> = async (values) => {
    const parsed = schema.safeParse(withoutEmpty(values));
    if (parsed.success) return { values, errors: {} };
    return { values: {}, errors: nest(toFieldErrors(parsed.error)) as FieldErrors<Values> };
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
