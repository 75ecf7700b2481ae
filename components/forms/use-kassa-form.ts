"use client";

import { useEffect, useState } from "react";
import { type FieldValues, type Path, type Resolver, type UseFormProps, useForm } from "react-hook-form";
import { DashboardRequestError } from "@/components/query/dashboard-fetch";
import { type FieldLabels, relabel, relabelErrors } from "./field-labels";
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
  {
    labels,
    isSchemaLoadedWithPage = true,
    ...options
  }: Omit<UseFormProps<Values>, "resolver"> & {
    /** The form's labels (field-labels.ts): messages name fields as the screen does, not as the API. */
    labels?: FieldLabels;
    /**
     * Loads the schema as soon as the page shows (form pages). A form that is rarely opened (the
     * step-up dialog, on every dashboard page) says false and calls `schema.preload()` on opening.
     */
    isSchemaLoadedWithPage?: boolean;
  } = {},
) {
  useEffect(() => {
    if (isSchemaLoadedWithPage) schema.preload();
  }, [schema, isSchemaLoadedWithPage]);
  const resolver: Resolver<Values> = async (values, context, resolverOptions) => {
    const result = await schema.resolver(values, context, resolverOptions);
    if (labels) relabelErrors(result.errors, labels);
    return result;
  };
  const form = useForm<Values>({ mode: "onTouched", ...options, resolver });
  const say = (message: string) => (labels ? relabel(message, labels) : message);
  const [formError, setFormError] = useState<string | null>(null);
  /** Puts the server's field errors on their fields, and returns the message for the whole form. */
  const applyServerError = (error: unknown): string => {
    if (!(error instanceof DashboardRequestError)) return say(errorMessage(error));
    let unshown: string | undefined;
    for (const [field, message] of Object.entries(error.fields)) {
      // The server validates with the schema this form is typed from, so it names the form's own
      // fields; one the form holds no value for has no input to show its message under.
      const name = field as Path<Values>;
      if (form.getValues(name) === undefined) unshown ??= say(message);
      else form.setError(name, { type: "server", message: say(message) });
    }
    if (unshown) return unshown;
    return Object.keys(error.fields).length ? "Check the highlighted fields." : say(error.message);
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
