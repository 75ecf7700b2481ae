"use client";

import countries from "i18n-iso-countries";
import { useMemo, useRef } from "react";
import { RequiredMark } from "@/components/forms/field";
import { useChoiceMadeBeforeHydration } from "@/components/forms/use-choice-made-before-hydration";

export type CustomerKind = "natural" | "legal";
export type FieldErrors = Record<string, string>;

export const customerInputClass =
  "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base dark:border-slate-600 dark:bg-slate-900";

/** Countries by their English names, valued by the three-letter code the API stores. */
function useCountries() {
  return useMemo(() => {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    return Object.entries(countries.getAlpha3Codes())
      .map(([alpha3, alpha2]) => ({ code: alpha3, name: names.of(alpha2) ?? alpha3 }))
      .sort((a, b) => a.name.localeCompare(b.name, "en"));
  }, []);
}

/** A labelled input of the customer's forms, its error under it, keyed by the field's own name. */
export function CustomerInput({
  name,
  label,
  errors,
  isRequired = true,
  ...rest
}: {
  name: string;
  label: string;
  errors: FieldErrors;
  isRequired?: boolean;
} & React.InputHTMLAttributes<HTMLInputElement>) {
  const key = name.split(".").pop()!;
  const id = `customer-${key}`;
  const error = errors[key];
  return (
    <div className="mt-3">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
        {isRequired ? <RequiredMark /> : <span className="font-normal"> (optional)</span>}
      </label>
      <input
        id={id}
        name={name}
        aria-required={isRequired || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`${customerInputClass} ${error ? "border-red-600 dark:border-red-400" : ""}`}
        {...rest}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}

/** The form's customer fields as the endpoints take them: `sender_type` and the `sender_data` object. */
export function senderOf(form: HTMLFormElement): {
  sender_type: string;
  sender_data: Record<string, string>;
} {
  const data: Record<string, string> = {};
  let type = "";
  for (const [name, value] of new FormData(form)) {
    const text = String(value).trim();
    if (name === "sender_type") type = text;
    else if (name.startsWith("sender_data.") && text !== "") data[name.slice("sender_data.".length)] = text;
  }
  return { sender_type: type, sender_data: data };
}

/** Field messages of an API answer by the field's own name ("first_name"), as the inputs are keyed. */
export function fieldErrorsOf(body: { errors?: FieldErrors }): FieldErrors {
  const fields: FieldErrors = {};
  for (const [field, message] of Object.entries(body.errors ?? {})) fields[field.split(".").pop()!] = message;
  return fields;
}

const KIND_LABELS: Record<CustomerKind, string> = { natural: "A person", legal: "A company" };

/**
 * The compliance fields of spec 2.1 as a customer fills them in: a person's name and date of birth, or
 * a company's legal name and country, and an optional e-mail for refund instructions. `kinds` are the
 * payer types allowed (a choice only when there are two).
 */
export function CustomerFields({
  kinds,
  kind,
  onKind,
  errors,
}: {
  kinds: readonly CustomerKind[];
  kind: CustomerKind;
  onKind: (kind: CustomerKind) => void;
  errors: FieldErrors;
}) {
  const countryList = useCountries();
  // A payer type chosen on the server-rendered page before its script ran: its fields are the ones shown.
  const kindGroup = useRef<HTMLDivElement>(null);
  useChoiceMadeBeforeHydration(kindGroup, kinds, onKind);
  return (
    <>
      {kinds.length > 1 ? (
        <fieldset className="mt-3">
          <legend className="text-sm font-medium">You are paying as</legend>
          <div className="mt-1 flex flex-wrap gap-4" ref={kindGroup}>
            {kinds.map((value) => (
              <label key={value} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="sender_type"
                  value={value}
                  checked={kind === value}
                  onChange={() => onKind(value)}
                  className="h-4 w-4"
                />
                {KIND_LABELS[value]}
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <>
          <input type="hidden" name="sender_type" value={kind} />
          <p className="mt-3 text-sm">
            {kind === "natural" ? "You are paying as a person." : "You are paying as a company."}
          </p>
        </>
      )}
      {errors.sender_type && (
        <p className="mt-1 text-sm text-red-700 dark:text-red-300">{errors.sender_type}</p>
      )}
      {kind === "natural" ? (
        <div className="grid gap-x-3 sm:grid-cols-2">
          <CustomerInput
            name="sender_data.first_name"
            label="First name"
            errors={errors}
            autoComplete="given-name"
          />
          <CustomerInput
            name="sender_data.last_name"
            label="Last name"
            errors={errors}
            autoComplete="family-name"
          />
          <CustomerInput
            name="sender_data.date_of_birth"
            label="Date of birth"
            type="date"
            errors={errors}
            autoComplete="bday"
          />
        </div>
      ) : (
        <>
          <CustomerInput
            name="sender_data.legal_name"
            label="Company's legal name"
            errors={errors}
            autoComplete="organization"
          />
          <div className="mt-3">
            <label htmlFor="customer-country_of_registration" className="block text-sm font-medium">
              Country of registration
              <RequiredMark />
            </label>
            <select
              id="customer-country_of_registration"
              name="sender_data.country_of_registration"
              aria-required="true"
              aria-invalid={errors.country_of_registration ? true : undefined}
              aria-describedby={
                errors.country_of_registration ? "customer-country_of_registration-error" : undefined
              }
              defaultValue=""
              className={customerInputClass}
            >
              <option value="">Choose a country</option>
              {countryList.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name}
                </option>
              ))}
            </select>
            {errors.country_of_registration && (
              <p
                id="customer-country_of_registration-error"
                className="mt-1 text-sm text-red-700 dark:text-red-300"
              >
                {errors.country_of_registration}
              </p>
            )}
          </div>
        </>
      )}
      <CustomerInput
        name="sender_data.email"
        label="E-mail"
        type="email"
        errors={errors}
        isRequired={false}
        autoComplete="email"
      />
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Only used to tell you how to get money back if you send a different amount.
      </p>
    </>
  );
}
