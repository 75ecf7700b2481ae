"use client";

import { useEffect, useRef, useState } from "react";
import type { DefaultValues } from "react-hook-form";
import type { z } from "zod";
import { CopyField } from "@/components/checkout/copy-field";
import { PartyFields } from "@/components/dashboard/sender-fields";
import { decimalFromInput } from "@/components/forms/decimal-input";
import { buttonClass, Field, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { INVOICE_LABELS } from "@/components/forms/field-labels";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { type CreatedInvoice, useCreateInvoice } from "@/components/query/use-transactions";
import { CURRENCIES, findCurrency } from "@/lib/currencies/registry";
import { formatAmountShort } from "@/lib/money";
import type { createInvoiceRequest } from "@/lib/schemas/invoices";

type Values = z.input<typeof createInvoiceRequest>;

const newForeignId = () =>
  `inv-${new Date().toISOString().slice(0, 10).replace(/-/g, "")}-${Math.random().toString(36).slice(2, 8)}`;

function defaults(): DefaultValues<Values> {
  return {
    title: "",
    description: "",
    currency: "EUR",
    amount: "",
    foreign_id: newForeignId(),
    end_user_reference: "",
    email_user: "",
    url_success: "",
    url_failed: "",
    timer: true,
    type: "fill_or_kill",
    sender_currency: "",
    sender_type: "natural",
  };
}

/** The invoice form: every field of spec 2.2, validated by the API's own schema, with the API's messages. */
const schema = formSchema(() => import("@/lib/schemas/invoices").then((m) => m.createInvoiceRequest));

/** The API's limit on a title (lib/schemas/invoices.ts), counted as the merchant types. */
const TITLE_MAX = 50;

/** The amount's hint: the currency's minimum and the decimal marks accepted. */
function amountHint(code: string): string {
  const currency = findCurrency(code);
  const minimum = currency ? `At least ${formatAmountShort(currency.minimumAmount)} ${code}. ` : "";
  return `${minimum}A comma works as the decimal mark: 12,50 is 12.50.`;
}

/** "15 minutes", "1 hour", "90 seconds": a duration the way the form's labels say it. */
function spokenDuration(seconds: number): string {
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? "" : "s"}`;
  if (seconds % 3600 === 0) return unit(seconds / 3600, "hour");
  if (seconds % 60 === 0) return unit(seconds / 60, "minute");
  return unit(seconds, "second");
}

export function InvoiceForm({
  timerSeconds,
  rateLockSeconds,
}: {
  timerSeconds: number;
  rateLockSeconds: number;
}) {
  const form = useKassaForm<Values>(schema, {
    defaultValues: defaults(),
    shouldUnregister: true,
    labels: INVOICE_LABELS,
  });
  const createInvoice = useCreateInvoice();
  const [created, setCreated] = useState<CreatedInvoice | null>(null);
  const submit = form.submitWith(async (values) => {
    setCreated(await createInvoice.mutateAsync(values));
  });
  const { errors, isSubmitting } = form.formState;
  const { register } = form;
  const titleLength = String(form.watch("title") ?? "").length;
  // The result replaces the form: focus goes to its heading, so keyboard and screen reader users land on it.
  const createdHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (created) createdHeading.current?.focus();
  }, [created]);

  if (created) {
    return (
      <section aria-labelledby="created">
        <h1 id="created" ref={createdHeading} tabIndex={-1} className="text-2xl font-bold tracking-tight">
          Invoice {created.id} created
        </h1>
        <p className="mt-2">
          Send this link to your customer. It stays valid until the invoice is paid, expires or is cancelled.
        </p>
        <CopyField label="Payment link" value={created.url} />
        {/* biome-ignore lint/performance/noImgElement: a server-drawn SVG */}
        <img
          src={`/api/checkout/${created.token}/link.svg`}
          alt="QR code of the payment link"
          width={176}
          height={176}
          className="mt-3 rounded-md bg-white p-1"
        />
        <div className="mt-4 flex flex-wrap gap-2">
          <a href={created.url} target="_blank" rel="noreferrer" className={secondaryButtonClass}>
            Open the payment page
          </a>
          <a href={`/dashboard/invoices/${created.id}`} className={secondaryButtonClass}>
            View the invoice
          </a>
          <button
            type="button"
            className={buttonClass}
            onClick={() => {
              form.reset(defaults());
              setCreated(null);
            }}
          >
            Create another
          </button>
        </div>
      </section>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="max-w-3xl">
      <h1 className="text-2xl font-bold tracking-tight">New invoice</h1>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          label="Title"
          name="title"
          errors={errors}
          register={register("title")}
          hint={`Shown to the customer. ${titleLength} of ${TITLE_MAX} characters.`}
        />
        <Field
          label="Your order id"
          name="foreign_id"
          errors={errors}
          register={register("foreign_id")}
          hint="Unique per invoice; callbacks carry it back as foreign_id."
        />
        <Field
          label="Amount"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          errors={errors}
          register={register("amount", { setValueAs: decimalFromInput })}
          hint={amountHint(String(form.watch("currency") ?? ""))}
        />
        <Field label="Currency you receive" name="currency" errors={errors}>
          <select id="field-currency" className={selectClass} {...register("currency")}>
            {CURRENCIES.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Customer's e-mail"
          name="email_user"
          type="email"
          errors={errors}
          register={register("email_user")}
          hint="For refund instructions if the amount paid differs."
        />
        <Field
          label="Customer reference"
          name="end_user_reference"
          errors={errors}
          register={register("end_user_reference")}
          hint="Your internal id for the customer (end_user_reference); no names or e-mail addresses."
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
        <Field label="Kind" name="type" errors={errors}>
          <select id="field-type" className={selectClass} {...register("type")}>
            <option value="fill_or_kill">Pay in one go (fill_or_kill)</option>
            <option value="good_until_expired">Allow partial payments (good_until_expired)</option>
          </select>
        </Field>
        <Field label="Customer pays in (optional)" name="sender_currency" errors={errors}>
          <select id="field-sender_currency" className={selectClass} {...register("sender_currency")}>
            <option value="">Customer chooses</option>
            {CURRENCIES.filter((c) => c.kind === "crypto").map((c) => (
              <option key={c.code} value={c.code}>
                {c.code}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field label="Description (optional)" name="description" errors={errors}>
        <textarea id="field-description" rows={3} className={selectClass} {...register("description")} />
      </Field>
      <div className="mt-3 flex items-start gap-2">
        <input
          id="field-timer"
          type="checkbox"
          {...register("timer")}
          aria-describedby="field-timer-hint"
          className="mt-0.5 h-4 w-4"
        />
        <div>
          <label htmlFor="field-timer" className="text-sm">
            Expire {spokenDuration(timerSeconds)} after the invoice is created
          </label>
          <p id="field-timer-hint" className="text-sm text-slate-600 dark:text-slate-400">
            {form.watch("timer")
              ? "The clock starts now, not when the customer opens the page; the price holds until it runs out."
              : `Without it the invoice stays open; its price holds for ${spokenDuration(rateLockSeconds)} at a time, then the customer is shown a new one.`}
          </p>
        </div>
      </div>
      <PartyFields
        side="sender"
        type={form.watch("sender_type")}
        typeField={register("sender_type")}
        dataField={(key) => register(`sender_data.${key}`)}
        errors={errors}
      />
      <FormError message={form.formError} />
      <button type="submit" disabled={isSubmitting} className={`mt-4 ${buttonClass}`}>
        {isSubmitting ? "Creating the invoice…" : "Create invoice"}
      </button>
    </form>
  );
}
