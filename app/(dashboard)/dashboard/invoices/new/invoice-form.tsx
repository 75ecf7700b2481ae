"use client";

import { useEffect, useRef, useState } from "react";
import type { DefaultValues } from "react-hook-form";
import type { z } from "zod";
import { CopyField } from "@/components/checkout/copy-field";
import { PartyFields } from "@/components/dashboard/sender-fields";
import { CurrencySelect } from "@/components/forms/currency-select";
import { decimalFromInput } from "@/components/forms/decimal-input";
import { buttonClass, Field, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { checkedByDefault, selectDefault } from "@/components/forms/field-defaults";
import { INVOICE_LABELS } from "@/components/forms/field-labels";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { type CreatedInvoice, useCreateInvoice } from "@/components/query/use-transactions";
import { CURRENCIES, findCurrency } from "@/lib/currencies/registry";
import { formatAmountShort } from "@/lib/money";
import type { dashboardInvoiceRequest } from "@/lib/schemas/invoices";

type Values = z.input<typeof dashboardInvoiceRequest>;

function defaults(): DefaultValues<Values> {
  return {
    title: "",
    description: "",
    currency: "EUR",
    amount: "",
    foreign_id: "",
    end_user_reference: "",
    email_user: "",
    url_success: "",
    url_failed: "",
    timer: true,
    type: "fill_or_kill",
    sender_currency: "",
    sender_type: undefined,
  };
}

/**
 * The invoice form: an amount, a currency and a title; the rest of spec 2.2 folded away and optional,
 * validated by the dashboard endpoint's schema (the API's, relaxed), with the API's messages. The
 * customer's details are left to the customer unless the merchant gives them.
 */
const schema = formSchema(() => import("@/lib/schemas/invoices").then((m) => m.dashboardInvoiceRequest));

/** Fields of each folded section: a section with an error opens, so the message is seen. */
const CUSTOMER_FIELDS = ["email_user", "end_user_reference", "sender_type", "sender_data"] as const;
const MORE_FIELDS = [
  "foreign_id",
  "description",
  "type",
  "sender_currency",
  "url_success",
  "url_failed",
  "timer",
] as const;

const summaryClass = "cursor-pointer select-none py-2 font-semibold text-indigo-800 dark:text-indigo-300";

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
  const isHydrated = useIsHydrated();
  const form = useKassaForm<Values>(schema, {
    defaultValues: defaults(),
    shouldUnregister: true,
    labels: INVOICE_LABELS,
  });
  const createInvoice = useCreateInvoice();
  const [created, setCreated] = useState<CreatedInvoice | null>(null);
  const [isCustomerShown, setIsCustomerShown] = useState(false);
  const [isMoreShown, setIsMoreShown] = useState(false);
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

  const hasErrorIn = (fields: readonly string[]) => fields.some((field) => field in errors);
  const isCustomerOpen = isCustomerShown || hasErrorIn(CUSTOMER_FIELDS);
  const isMoreOpen = isMoreShown || hasErrorIn(MORE_FIELDS);
  const isTimed = form.watch("timer") !== false;
  return (
    <form onSubmit={submit} noValidate className="max-w-3xl">
      <h1 className="text-2xl font-bold tracking-tight">New invoice</h1>
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
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          label="Amount"
          name="amount"
          isRequired
          inputMode="decimal"
          autoComplete="off"
          errors={errors}
          register={register("amount", { setValueAs: decimalFromInput })}
          hint={amountHint(String(form.watch("currency") ?? ""))}
        />
        <Field label="Currency you receive" name="currency" isRequired errors={errors}>
          <CurrencySelect
            registration={register("currency")}
            defaultValue={selectDefault(form, "currency")}
            currencies={CURRENCIES}
          />
        </Field>
      </div>
      <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">
        {isTimed
          ? `The customer has ${spokenDuration(timerSeconds)} to pay, counted from when you create the invoice (not from when they open the link or choose a coin).`
          : `No deadline to pay. Once the customer chooses a coin its price holds for ${spokenDuration(rateLockSeconds)}; after that, what is still due is priced again.`}{" "}
        Change it under More options.
      </p>
      <details
        open={isCustomerOpen}
        onToggle={(event) => setIsCustomerShown(event.currentTarget.open)}
        className="mt-4 rounded-md border border-slate-200 px-3 dark:border-slate-800"
      >
        <summary className={summaryClass}>Customer details (optional)</summary>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Payment rules require the payer&apos;s name and date of birth (or a company&apos;s name and
          country). Leave them out and the customer gives them on the payment page, before the address is
          shown.
        </p>
        <PartyFields
          side="sender"
          title="Who pays"
          emptyOption="The customer fills them in on the payment page"
          type={form.watch("sender_type")}
          typeField={register("sender_type")}
          dataField={(key) => register(`sender_data.${key}`)}
          errors={errors}
        />
        <div className="grid gap-x-4 pb-3 sm:grid-cols-2">
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
            hint="Your internal id for this customer, the same on all their invoices; no names or e-mail addresses."
          />
        </div>
      </details>
      <details
        open={isMoreOpen}
        onToggle={(event) => setIsMoreShown(event.currentTarget.open)}
        className="mt-3 rounded-md border border-slate-200 px-3 dark:border-slate-800"
      >
        <summary className={summaryClass}>More options</summary>
        <div className="mt-1 flex items-start gap-2">
          <input
            id="field-timer"
            type="checkbox"
            defaultChecked={checkedByDefault(form, "timer")}
            {...register("timer")}
            aria-describedby="field-timer-hint"
            className="mt-0.5 h-4 w-4"
          />
          <div>
            <label htmlFor="field-timer" className="text-sm">
              Give the customer {spokenDuration(timerSeconds)} to pay, from now
            </label>
            <p id="field-timer-hint" className="text-sm text-slate-600 dark:text-slate-400">
              {isTimed
                ? "The clock starts when you create the invoice; the price holds until it runs out, then the invoice expires."
                : `Without it the invoice stays open; its price holds for ${spokenDuration(rateLockSeconds)} at a time, and the payment page shows until when.`}
            </p>
          </div>
        </div>
        <div className="grid gap-x-4 sm:grid-cols-2">
          <Field label="If the customer pays less" name="type" errors={errors}>
            <select
              id="field-type"
              className={selectClass}
              defaultValue={selectDefault(form, "type")}
              {...register("type")}
            >
              <option value="fill_or_kill">The full amount in one payment, or the invoice fails</option>
              <option value="good_until_expired">Several payments may add up to the amount</option>
            </select>
          </Field>
          <Field label="Customer pays in" name="sender_currency" errors={errors}>
            <select
              id="field-sender_currency"
              className={selectClass}
              defaultValue={selectDefault(form, "sender_currency")}
              {...register("sender_currency")}
            >
              <option value="">The customer chooses</option>
              {CURRENCIES.filter((c) => c.kind === "crypto").map((c) => (
                <option key={c.code} value={c.code}>
                  {c.code} · {c.name}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Your order id"
            name="foreign_id"
            errors={errors}
            register={register("foreign_id")}
            hint="Unique per invoice; callbacks carry it back. Made up for you if empty."
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
        <div className="pb-3">
          <Field label="Description" name="description" errors={errors}>
            <textarea id="field-description" rows={3} className={selectClass} {...register("description")} />
          </Field>
        </div>
      </details>
      <FormError message={form.formError} />
      <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-4 ${buttonClass}`}>
        {isSubmitting ? "Creating the invoice…" : "Create invoice"}
      </button>
    </form>
  );
}
