"use client";

import { useEffect, useId, useRef } from "react";
import { buttonClass, Field, secondaryButtonClass } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { dashboardFetch } from "@/components/query/dashboard-fetch";
import { registerStepUpDialog, settleStepUp } from "./ask-step-up";

type Answer = { code?: string; password?: string };

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.stepUpRequest));

/**
 * The one confirmation a sensitive change asks for (lib/team/sensitive-actions.ts): the
 * authenticator code with two-factor sign-in on, else the password. A right answer opens this
 * session's step-up window for a few minutes, and the request that asked is sent again. A native
 * modal <dialog>: focus moves into it and stays there, Escape cancels, the page behind is inert.
 */
export function StepUpDialog({ hasTotp }: { hasTotp: boolean }) {
  const isHydrated = useIsHydrated();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // On every dashboard page, and opened only for a sensitive change: zod and the schema (about
  // 380 KB of script) load when it opens, not with each page.
  const form = useKassaForm<Answer>(schema, {
    defaultValues: hasTotp ? { code: "" } : { password: "" },
    isSchemaLoadedWithPage: false,
  });
  const { reset, setFocus } = form;
  const field = hasTotp ? "code" : "password";

  useEffect(
    () =>
      registerStepUpDialog(() => {
        schema.preload();
        reset();
        if (!ref.current) return;
        ref.current.returnValue = ""; // Escape closes without one: not confirmed
        ref.current.showModal();
        setFocus(field);
      }),
    [reset, setFocus, field],
  );

  const submit = form.submitWith(async (values) => {
    await dashboardFetch("/api/dashboard/step-up", { body: values });
    ref.current?.close("confirmed");
  });

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto w-[calc(100%-2rem)] max-w-sm rounded-lg border border-slate-300 bg-white p-4 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      onClose={() => settleStepUp(ref.current?.returnValue === "confirmed")}
    >
      <form onSubmit={submit} noValidate>
        <h2 id={titleId} className="text-lg font-semibold">
          Confirm it is you
        </h2>
        <p className="mt-1 text-sm">
          This change needs your {hasTotp ? "authenticator code" : "password"} again. For the next 5 minutes,
          changes in this browser will not ask again.
        </p>
        {hasTotp ? (
          <Field
            label="Code from your authenticator app"
            name="code"
            idPrefix="step-up"
            inputMode="numeric"
            autoComplete="one-time-code"
            errors={form.formState.errors}
            register={form.register("code")}
          />
        ) : (
          <Field
            label="Your password"
            name="password"
            type="password"
            idPrefix="step-up"
            autoComplete="current-password"
            errors={form.formState.errors}
            register={form.register("password")}
          />
        )}
        <FormError message={form.formError} />
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="submit" disabled={!isHydrated || form.formState.isSubmitting} className={buttonClass}>
            {form.formState.isSubmitting ? "Confirming…" : "Confirm"}
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => ref.current?.close("cancelled")}
          >
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
