"use client";

import Link from "next/link";
import { useState } from "react";
import type { z } from "zod";
import { buttonClass, Field } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { dashboardFetch } from "@/components/query/dashboard-fetch";

import type { createMerchantInput } from "@/lib/schemas/merchant";

const schema = formSchema(() => import("@/lib/schemas/merchant").then((m) => m.createMerchantInput));

export function SignupForm() {
  const form = useKassaForm<z.input<typeof createMerchantInput>>(schema);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = form.submitWith(async (values) => {
    await dashboardFetch("/api/dashboard/signup", { body: values });
    setSentTo(values.email);
  });
  const { errors, isSubmitting } = form.formState;
  // The same words whether or not the address already had an account: the e-mail tells its owner which.
  if (sentTo)
    return (
      <section className="mt-6" aria-live="polite">
        <h1 className="text-2xl font-bold tracking-tight">Check your e-mail</h1>
        <p className="mt-4">
          We sent a message to <strong>{sentTo}</strong>. Open the link in it to finish creating your account;
          it works once, for 24 hours.
        </p>
      </section>
    );
  return (
    <form onSubmit={submit} className="mt-6" noValidate>
      <h1 className="text-2xl font-bold tracking-tight">Create your Kassa account</h1>
      <Field
        label="Business name"
        name="name"
        errors={errors}
        register={form.register("name")}
        autoComplete="organization"
      />
      <Field
        label="E-mail"
        name="email"
        type="email"
        errors={errors}
        register={form.register("email")}
        autoComplete="email"
      />
      <Field
        label="Password"
        name="password"
        type="password"
        errors={errors}
        register={form.register("password")}
        autoComplete="new-password"
        hint="At least 10 characters."
      />
      <FormError message={form.formError} />
      <button type="submit" disabled={isSubmitting} className={`mt-4 w-full ${buttonClass}`}>
        {isSubmitting ? "Creating your account…" : "Create account"}
      </button>
      <p className="mt-4 text-sm">
        Already have an account?{" "}
        <Link href="/login" className="text-indigo-700 underline dark:text-indigo-300">
          Sign in
        </Link>
      </p>
    </form>
  );
}
