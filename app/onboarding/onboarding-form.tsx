"use client";

import { useState } from "react";
import type { z } from "zod";
import { SecretReveal } from "@/components/dashboard/secret-reveal";
import { buttonClass, Field } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { dashboardFetch } from "@/components/query/dashboard-fetch";
import type { onboardingRequest } from "@/lib/schemas/dashboard";

type Key = { api_key: string; api_secret: string };

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.onboardingRequest));

export function OnboardingForm({ defaultName }: { defaultName: string }) {
  const isHydrated = useIsHydrated();
  const form = useKassaForm<z.input<typeof onboardingRequest>>(schema, {
    defaultValues: { name: defaultName, callback_url: "", key_label: "Production server" },
  });
  const [key, setKey] = useState<Key | null>(null);
  const submit = form.submitWith(async (values) => {
    setKey(await dashboardFetch<Key>("/api/dashboard/onboarding", { body: values }));
  });
  const { errors, isSubmitting } = form.formState;
  if (key) {
    return (
      <section aria-labelledby="done">
        <h1 id="done" className="text-2xl font-bold tracking-tight">
          Your first API key
        </h1>
        <SecretReveal apiKey={key.api_key} secret={key.api_secret} />
        <a href="/dashboard" className={`mt-6 inline-block ${buttonClass}`}>
          Go to the dashboard
        </a>
      </section>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <h1 className="text-2xl font-bold tracking-tight">Set up your account</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        Three things, and you can take your first payment.
      </p>
      <Field
        label="Business name"
        name="name"
        errors={errors}
        register={form.register("name")}
        hint="Customers see it on the payment page."
      />
      <Field
        label="Callback URL (optional)"
        name="callback_url"
        type="url"
        errors={errors}
        register={form.register("callback_url")}
        hint="Kassa POSTs payment and payout updates here. You can set it later."
      />
      <Field
        label="Name of your first API key"
        name="key_label"
        errors={errors}
        register={form.register("key_label")}
      />
      <FormError message={form.formError} />
      <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-4 ${buttonClass}`}>
        {isSubmitting ? "Saving…" : "Finish and create the key"}
      </button>
    </form>
  );
}
