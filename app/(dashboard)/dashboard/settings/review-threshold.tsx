"use client";

import type { z } from "zod";
import { buttonClass, Field } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { useSaveReviewThreshold } from "@/components/query/use-reviews";
import type { reviewThresholdRequest } from "@/lib/schemas/compliance";

const schema = formSchema(() => import("@/lib/schemas/compliance").then((m) => m.reviewThresholdRequest));

/** The score from which incoming payments wait in Reviews; a change is confirmed (the dashboard's one dialog). */
export function ReviewThreshold({ threshold }: { threshold: string }) {
  const isHydrated = useIsHydrated();
  const save = useSaveReviewThreshold();
  const form = useKassaForm<z.input<typeof reviewThresholdRequest>>(schema, {
    defaultValues: { threshold },
  });
  const submit = form.submitWith(async (values) => {
    const saved = await save.mutateAsync(values);
    form.reset({ threshold: saved.review_threshold });
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="threshold-title" className="mt-10 max-w-md">
      <h2 id="threshold-title" className="text-xl font-semibold">
        Compliance review threshold
      </h2>
      <p className="mt-1 text-sm">
        Each incoming payment gets a risk score from 0 to 100 when it confirms. From this score on, it waits
        in Reviews for a decision instead of reaching your balance. A sender on the operator's denylist scores
        100.
      </p>
      <Field
        label="Review payments scoring at least"
        name="threshold"
        inputMode="decimal"
        errors={errors}
        register={form.register("threshold")}
      />
      <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-3 ${buttonClass}`}>
        {isSubmitting ? "Saving…" : "Save threshold"}
      </button>
      {save.isSuccess && !form.formError && (
        <p aria-live="polite" className="mt-2 text-sm">
          Threshold saved: payments scoring {save.data.review_threshold} or more wait for review.
        </p>
      )}
      <FormError message={form.formError} />
    </form>
  );
}
