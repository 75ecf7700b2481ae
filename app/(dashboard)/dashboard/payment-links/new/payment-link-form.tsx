"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import type { DefaultValues } from "react-hook-form";
import type { z } from "zod";
import { CurrencySelect } from "@/components/forms/currency-select";
import { decimalFromInput } from "@/components/forms/decimal-input";
import { buttonClass, Field, selectClass } from "@/components/forms/field";
import { checkedByDefault, selectDefault } from "@/components/forms/field-defaults";
import { PAYMENT_LINK_LABELS } from "@/components/forms/field-labels";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useChoiceMadeBeforeHydration } from "@/components/forms/use-choice-made-before-hydration";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { useCreatePaymentLink } from "@/components/query/use-payment-links";
import { CURRENCIES, findCurrency } from "@/lib/currencies/registry";
import { formatAmountShort } from "@/lib/money";
import type { createPaymentLinkRequest } from "@/lib/schemas/payment-links";

type Values = z.input<typeof createPaymentLinkRequest>;

/** Validated by the schema the endpoint validates with (the API's own), with its messages. */
const schema = formSchema(() =>
  import("@/lib/schemas/payment-links").then((m) => m.createPaymentLinkRequest),
);

const defaults = (): DefaultValues<Values> => ({
  title: "",
  description: "",
  currency: "EUR",
  amount: "",
  min_amount: "",
  max_amount: "",
  sender_types: ["natural", "legal"],
  expires_at: "",
  max_uses: "" as unknown as number,
  url_success: "",
  url_failed: "",
});

/** A `datetime-local` value ("2026-12-31T23:59", read as UTC, as every dashboard time is) as the API's ISO 8601. */
const utcFromInput = (value: unknown) =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : value;

/** A whole number typed into a number input; empty stays empty (absent). */
const countFromInput = (value: unknown) => (value === "" || value === undefined ? "" : Number(value));

/** The amount's hint: the currency's minimum and the decimal marks accepted. */
function minimumHint(code: string): string {
  const currency = findCurrency(code);
  return currency
    ? `At least ${formatAmountShort(currency.minimumAmount)} ${code}, up to ${currency.precision} decimals.`
    : "";
}

const TITLE_MAX = 50;

/**
 * The payment link form: a title, a currency and either a fixed amount or a range the customer's
 * amount must fall in; who may pay, an end and a number of payments optional. The amount fields
 * shown follow the choice (fields not shown are not sent, so the API's rule of one or the other holds).
 */
export function PaymentLinkForm() {
  const isHydrated = useIsHydrated();
  const router = useRouter();
  const [isFixed, setIsFixed] = useState(true);
  const amountKindGroup = useRef<HTMLFieldSetElement>(null);
  useChoiceMadeBeforeHydration(amountKindGroup, [true, false], setIsFixed);
  const form = useKassaForm<Values>(schema, {
    defaultValues: defaults(),
    shouldUnregister: true,
    labels: PAYMENT_LINK_LABELS,
  });
  const create = useCreatePaymentLink();
  const submit = form.submitWith(async (values) => {
    const link = await create.mutateAsync(values);
    router.push(`/dashboard/payment-links/${link.id}`);
  });
  const { errors, isSubmitting } = form.formState;
  const { register } = form;
  const currency = String(form.watch("currency") ?? "");
  const titleLength = String(form.watch("title") ?? "").length;
  return (
    <form onSubmit={submit} noValidate className="max-w-3xl">
      <h1 className="text-2xl font-bold tracking-tight">New payment link</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with a star</span> are required; everything else can stay empty.
      </p>
      <Field
        label="Title"
        name="title"
        isRequired
        errors={errors}
        register={register("title")}
        hint={`Shown to the customer. ${titleLength} of ${TITLE_MAX} characters.`}
      />
      <Field label="Description" name="description" errors={errors}>
        <textarea
          id="field-description"
          rows={3}
          className={selectClass}
          aria-describedby="field-description-hint"
          {...register("description")}
        />
      </Field>
      <p id="field-description-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Shown to the customer under the title.
      </p>
      <Field label="Currency" name="currency" isRequired errors={errors}>
        <CurrencySelect
          registration={register("currency")}
          defaultValue={selectDefault(form, "currency")}
          currencies={CURRENCIES}
        />
      </Field>
      <fieldset ref={amountKindGroup} className="mt-4">
        <legend className="text-sm font-medium">How much the customer pays</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="amount-kind"
              checked={isFixed}
              onChange={() => setIsFixed(true)}
              className="h-4 w-4"
            />
            A fixed amount
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="amount-kind"
              checked={!isFixed}
              onChange={() => setIsFixed(false)}
              className="h-4 w-4"
            />
            The customer enters the amount
          </label>
        </div>
      </fieldset>
      {isFixed ? (
        <Field
          label="Amount"
          name="amount"
          isRequired
          inputMode="decimal"
          autoComplete="off"
          errors={errors}
          register={register("amount", { setValueAs: decimalFromInput })}
          hint={`${minimumHint(currency)} A comma works as the decimal mark.`}
        />
      ) : (
        <div className="grid gap-x-4 sm:grid-cols-2">
          <Field
            label="Least amount"
            name="min_amount"
            inputMode="decimal"
            autoComplete="off"
            errors={errors}
            register={register("min_amount", { setValueAs: decimalFromInput })}
            hint={`Optional. ${minimumHint(currency)}`}
          />
          <Field
            label="Largest amount"
            name="max_amount"
            inputMode="decimal"
            autoComplete="off"
            errors={errors}
            register={register("max_amount", { setValueAs: decimalFromInput })}
            hint="Optional; no limit if empty."
          />
        </div>
      )}
      <fieldset
        className="mt-4"
        aria-describedby={errors.sender_types ? "field-sender_types-error" : undefined}
      >
        <legend className="text-sm font-medium">Who may pay</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {(
            [
              ["natural", "People"],
              ["legal", "Companies"],
            ] as const
          ).map(([type, label]) => (
            <label key={type} className="flex items-center gap-2">
              <input
                type="checkbox"
                value={type}
                className="h-4 w-4"
                defaultChecked={checkedByDefault(form, "sender_types", type)}
                {...register("sender_types")}
              />
              {label}
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          The customer gives the details payment rules ask (a name and date of birth, or a company&apos;s name
          and country) on the link&apos;s page.
        </p>
        {errors.sender_types && (
          <p id="field-sender_types-error" className="mt-1 text-sm text-red-700 dark:text-red-300">
            {errors.sender_types.message ?? errors.sender_types.root?.message ?? "Choose who may pay."}
          </p>
        )}
      </fieldset>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          label="Stops taking payments at (UTC)"
          name="expires_at"
          type="datetime-local"
          errors={errors}
          register={register("expires_at", { setValueAs: utcFromInput })}
          hint="Optional; the link works until you deactivate it if empty."
        />
        <Field
          label="Number of payments"
          name="max_uses"
          type="number"
          min={1}
          step={1}
          errors={errors}
          register={register("max_uses", { setValueAs: countFromInput })}
          hint="Optional. Paid invoices and ones being paid count; unpaid ones free their place when they expire."
        />
        <Field
          label="Return address after payment"
          name="url_success"
          type="url"
          errors={errors}
          register={register("url_success")}
        />
        <Field
          label="Return address if the payment fails"
          name="url_failed"
          type="url"
          errors={errors}
          register={register("url_failed")}
        />
      </div>
      <FormError message={form.formError} />
      <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-4 ${buttonClass}`}>
        {isSubmitting ? "Creating the link…" : "Create payment link"}
      </button>
    </form>
  );
}
