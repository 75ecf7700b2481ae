"use client";

import { type FormEvent, useState } from "react";
import { buttonClass, secondaryButtonClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";

/**
 * A decision a person looks at once more before it is taken (approve or decline a withdrawal,
 * release or reject a held payment): what it does, the decision's button and Cancel. `decide`
 * sends it (the dashboard's one dialog confirms it is them); its refusal is shown on the form.
 */
export function DecisionForm({
  label,
  explanation,
  submitLabel,
  busyLabel,
  decide,
  onCancel,
}: {
  label: string;
  explanation: string;
  submitLabel: string;
  busyLabel: string;
  decide: () => Promise<void>;
  onCancel: () => void;
}) {
  const isHydrated = useIsHydrated();
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    setError(null);
    try {
      await decide();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <form className="mt-2 max-w-sm" onSubmit={submit} noValidate aria-label={label}>
      <p className="text-sm">{explanation}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" disabled={!isHydrated || isBusy} className={buttonClass}>
          {isBusy ? busyLabel : submitLabel}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
      <FormError message={error} />
    </form>
  );
}
