"use client";

import { useState } from "react";
import type { DefaultValues, FieldValues, Path } from "react-hook-form";
import { buttonClass, Field, selectClass } from "@/components/forms/field";
import { selectDefault } from "@/components/forms/field-defaults";
import { FormError } from "@/components/forms/form-error";
import type { FormSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { withoutEmpty } from "@/components/forms/without-empty";
import { type SandboxAction as Action, useSandboxAction } from "@/components/query/use-sandbox";

export type ActionField<Values extends FieldValues> = {
  name: Path<Values>;
  label: string;
  options?: readonly string[];
  placeholder?: string;
};

/** One small form of the sandbox panel: its fields, one action, and the answer in words. */
export function SandboxAction<Values extends FieldValues, Result>({
  title,
  action,
  schema,
  fields,
  defaultValues,
  describe,
}: {
  title: string;
  action: Action;
  schema: FormSchema<Values>;
  fields: ActionField<Values>[];
  defaultValues: DefaultValues<Values>;
  describe: (result: Result) => string;
}) {
  const isHydrated = useIsHydrated();
  const form = useKassaForm<Values>(schema, { defaultValues });
  const mutation = useSandboxAction<Result>(action);
  const [done, setDone] = useState<string | null>(null);
  const id = title.toLowerCase().replace(/\W+/g, "-");
  const submit = form.submitWith(async (values) => {
    setDone(null);
    setDone(describe(await mutation.mutateAsync(withoutEmpty(values))));
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form
      aria-labelledby={id}
      className="rounded-md border border-slate-200 p-3 dark:border-slate-800"
      onSubmit={submit}
      noValidate
    >
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {fields.map((field) =>
        field.options ? (
          <Field key={field.name} label={field.label} name={field.name} errors={errors} idPrefix={id}>
            <select
              id={`${id}-${field.name}`}
              className={selectClass}
              defaultValue={selectDefault(form, field.name)}
              {...form.register(field.name)}
            >
              {field.options.map((option) => (
                <option key={option}>{option}</option>
              ))}
            </select>
          </Field>
        ) : (
          <Field
            key={field.name}
            label={field.label}
            name={field.name}
            errors={errors}
            idPrefix={id}
            register={form.register(field.name)}
            placeholder={field.placeholder}
          />
        ),
      )}
      <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-3 ${buttonClass}`}>
        {isSubmitting ? "Working…" : title}
      </button>
      {done && (
        <p aria-live="polite" className="mt-2 text-sm">
          {done}
        </p>
      )}
      <FormError message={form.formError} />
    </form>
  );
}
