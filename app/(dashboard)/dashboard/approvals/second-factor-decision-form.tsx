"use client";

import { buttonClass, secondaryButtonClass } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import type { FormSchema } from "@/components/forms/form-schema";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import type { SecondFactor } from "@/components/query/use-approvals";
import { SecondFactorField } from "./second-factor-field";

/**
 * A decision a person confirms with the second factor (approve or decline a withdrawal, release or
 * reject a held payment): what it does, the code or password, the decision's button and Cancel.
 * `decide` sends it; its refusal is shown on the form.
 */
export function SecondFactorDecisionForm({
  schema,
  label,
  explanation,
  idPrefix,
  submitLabel,
  busyLabel,
  hasTotp,
  decide,
  onCancel,
}: {
  schema: FormSchema<SecondFactor>;
  label: string;
  explanation: string;
  idPrefix: string;
  submitLabel: string;
  busyLabel: string;
  hasTotp: boolean;
  decide: (values: SecondFactor) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useKassaForm<SecondFactor>(schema, {
    defaultValues: hasTotp ? { code: "" } : { password: "" },
  });
  const submit = form.submitWith(decide);
  return (
    <form className="mt-2 max-w-sm" onSubmit={submit} noValidate aria-label={label}>
      <p className="text-sm">{explanation}</p>
      <SecondFactorField
        hasTotp={hasTotp}
        idPrefix={idPrefix}
        errors={form.formState.errors}
        register={form.register}
      />
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" disabled={form.formState.isSubmitting} className={buttonClass}>
          {form.formState.isSubmitting ? busyLabel : submitLabel}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
      <FormError message={form.formError} />
    </form>
  );
}
