"use client";

import { useEffect, useState } from "react";
import { type FieldValues, type Path, type UseFormProps, useForm } from "react-hook-form";
import { DashboardRequestError } from "@/components/query/dashboard-fetch";
import { errorMessage } from "./form-error";
import type { FormSchema } from "./form-schema";

/**
 * A form typed from, and validated by, the zod schema of the endpoint it posts to, with the API's
 * own messages: `useKassaForm<z.input<typeof schema>>(formSchema(load), options)`. `submitWith`
 * sends valid values; what the server refuses comes back onto the fields, and the message for the
 * whole form into `formError` (shown with FormError).
 */
export function useKassaForm<Values extends FieldValues>(
  schema: FormSchema<Values>,
  options: Omit<UseFormProps<Values>, "resolver"> = {},
) {
  useEffect(() => schema.preload(), [schema]);
  const form = useForm<Values>({ mode: "onTouched", ...options, resolver: schema.resolver });
  const [formError, setFormError] = useState<string | null>(null);
  /** Puts the server's field errors on their fields, and returns the message for the whole form. */
  const applyServerError = (error: unknown): string => {
    if (!(error instanceof DashboardRequestError)) return errorMessage(error);
    let unshown: string | undefined;
    for (const [field, message] of Object.entries(error.fields)) {
      // The server validates with the schema this form is typed from, so it names the form's own
      // fields; one the form holds no value for has no input to show its message under.
      const name = field as Path<Values>;
      if (form.getValues(name) === undefined) unshown ??= message;
      else form.setError(name, { type: "server", message });
    }
    if (unshown) return unshown;
    return Object.keys(error.fields).length ? "Check the highlighted fields." : error.message;
  };
  const submitWith = (send: (values: Values) => Promise<void>) =>
    form.handleSubmit(async (values) => {
      setFormError(null);
      try {
        await send(values);
      } catch (caught) {
        setFormError(applyServerError(caught));
      }
    });
  return { ...form, formError, submitWith };
}
