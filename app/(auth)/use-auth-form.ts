"use client";

import { useState } from "react";
import type { FieldValues, UseFormProps } from "react-hook-form";
import type { FormSchema } from "@/components/forms/form-schema";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { dashboardFetch } from "@/components/query/dashboard-fetch";

/**
 * A signed-out form (sign up, forgot or reset password) that posts its values to `path` once, then
 * gives way to what `done` keeps of them (the e-mail the message went to): only that is kept, never
 * the password that was sent.
 */
export function useAuthForm<Values extends FieldValues, Done>(
  schema: FormSchema<Values>,
  input: { path: string; done: (values: Values) => Done; options?: Omit<UseFormProps<Values>, "resolver"> },
) {
  const form = useKassaForm<Values>(schema, input.options);
  const [done, setDone] = useState<Done | null>(null);
  const submit = form.submitWith(async (values) => {
    await dashboardFetch(input.path, { body: values });
    setDone(input.done(values));
  });
  return { form, submit, done };
}
