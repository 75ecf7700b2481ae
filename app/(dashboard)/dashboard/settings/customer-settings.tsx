"use client";

import type { z } from "zod";
import { buttonClass, Field } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { useSaveSupportEmail, useSaveUnderpaymentTolerance } from "@/components/query/use-settings";
import type { supportEmailRequest, underpaymentToleranceRequest } from "@/lib/schemas/merchant-settings";

const emailSchema = formSchema(() =>
  import("@/lib/schemas/merchant-settings").then((m) => m.supportEmailRequest),
);
const toleranceSchema = formSchema(() =>
  import("@/lib/schemas/merchant-settings").then((m) => m.underpaymentToleranceRequest),
);

/** Where customers' replies go; shown on the checkout. A change is confirmed (the dashboard's one dialog). */
function SupportEmail({ email }: { email: string }) {
  const isHydrated = useIsHydrated();
  const save = useSaveSupportEmail();
  const form = useKassaForm<z.input<typeof supportEmailRequest>>(emailSchema, {
    defaultValues: { support_email: email },
  });
  const submit = form.submitWith(async (values) => {
    const saved = await save.mutateAsync(values);
    form.reset({ support_email: saved.support_email ?? "" });
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="support-title" className="mt-10 max-w-md">
      <h2 id="support-title" className="text-xl font-semibold">
        Support e-mail
      </h2>
      <p className="mt-1 text-sm">
        Your customers see this address on the checkout, and their replies to Kassa's e-mails (receipts,
        refunds, late payments) go to it. Leave it empty and the e-mails tell them replies are not read.
      </p>
      <Field
        label="Support e-mail address"
        name="support_email"
        type="email"
        autoComplete="email"
        errors={errors}
        register={form.register("support_email")}
      />
      <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-3 ${buttonClass}`}>
        {isSubmitting ? "Saving…" : "Save support e-mail"}
      </button>
      {save.isSuccess && !form.formError && (
        <p aria-live="polite" className="mt-2 text-sm">
          {save.data.support_email
            ? `Saved: customers' replies go to ${save.data.support_email}.`
            : "Removed: customers are told replies are not read."}
        </p>
      )}
      <FormError message={form.formError} />
    </form>
  );
}

/** The share of the amount due a payment may fall short by and still count as paid. */
function UnderpaymentTolerance({ percent }: { percent: string }) {
  const isHydrated = useIsHydrated();
  const save = useSaveUnderpaymentTolerance();
  const form = useKassaForm<z.input<typeof underpaymentToleranceRequest>>(toleranceSchema, {
    defaultValues: { tolerance_percent: percent },
  });
  const submit = form.submitWith(async (values) => {
    const saved = await save.mutateAsync(values);
    form.reset({ tolerance_percent: saved.tolerance_percent });
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="tolerance-title" className="mt-10 max-w-md">
      <h2 id="tolerance-title" className="text-xl font-semibold">
        Underpayment tolerance
      </h2>
      <p className="mt-1 text-sm">
        A payment short by at most this share of the amount due counts as paid: the invoice is confirmed and
        your balance receives what arrived. 0 means every payment must be complete. From 0 to 10 %.
      </p>
      <Field
        label="Tolerance in percent"
        name="tolerance_percent"
        inputMode="decimal"
        errors={errors}
        register={form.register("tolerance_percent")}
      />
      <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-3 ${buttonClass}`}>
        {isSubmitting ? "Saving…" : "Save tolerance"}
      </button>
      {save.isSuccess && !form.formError && (
        <p aria-live="polite" className="mt-2 text-sm">
          Tolerance saved: payments up to {save.data.tolerance_percent} % short count as paid.
        </p>
      )}
      <FormError message={form.formError} />
    </form>
  );
}

export function CustomerSettings(props: { supportEmail: string; tolerancePercent: string }) {
  return (
    <>
      <SupportEmail email={props.supportEmail} />
      <UnderpaymentTolerance percent={props.tolerancePercent} />
    </>
  );
}
