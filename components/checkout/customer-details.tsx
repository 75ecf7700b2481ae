"use client";

import countries from "i18n-iso-countries";
import { type FormEvent, useMemo, useState } from "react";
import { RequiredMark } from "@/components/forms/field";
import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { Countdown } from "./countdown";

type Kind = "natural" | "legal";
type Errors = Record<string, string>;

const inputClass =
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

function Input({
  name,
  label,
  errors,
  isRequired = true,
  ...rest
}: {
  name: string;
  label: string;
  errors: Errors;
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
        className={`${inputClass} ${error ? "border-red-600 dark:border-red-400" : ""}`}
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

/** The form's fields as the endpoint takes them: `sender_type` and the `sender_data` object. */
function bodyOf(form: HTMLFormElement) {
  const data: Record<string, string> = {};
  let type = "";
  for (const [name, value] of new FormData(form)) {
    const text = String(value).trim();
    if (name === "sender_type") type = text;
    else if (text !== "") data[name.replace(/^sender_data\./, "")] = text;
  }
  return { sender_type: type, sender_data: data };
}

/**
 * The customer's own details, asked before the address when the merchant did not give them: the
 * compliance fields of spec 2.1 (a person's name and date of birth, or a company's legal name and
 * country), sent to POST /api/checkout/<token>/customer. Without JavaScript the form posts to
 * /pay/<token>/customer, which redirects back to the page.
 */
export function CustomerDetails({
  view,
  onGiven,
  initialError = null,
}: {
  view: CheckoutView;
  onGiven: (view: CheckoutView) => void;
  initialError?: string | null;
}) {
  const [kind, setKind] = useState<Kind>("natural");
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(initialError);
  const [isSending, setIsSending] = useState(false);
  const countryList = useCountries();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setIsSending(true);
    setError(null);
    try {
      const response = await fetch(`/api/checkout/${view.token}/customer`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(bodyOf(event.currentTarget)),
      });
      const body = await response.json();
      if (response.ok) {
        onGiven(body);
        return;
      }
      // Field messages by the field's own name ("first_name"), as the inputs are keyed.
      const fields: Errors = {};
      for (const [field, message] of Object.entries((body.errors ?? {}) as Errors))
        fields[field.split(".").pop()!] = message;
      setErrors(fields);
      if (Object.keys(fields).length === 0) setError(body.error ?? "That did not work. Please try again.");
    } catch {
      setError("We could not reach the payment service. Check your connection and try again.");
    } finally {
      setIsSending(false);
    }
  };
  return (
    <section aria-labelledby="your-details" className="mt-6">
      <h2 id="your-details" className="text-lg font-semibold">
        Your details
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Payment rules require {view.merchant_name} to know who pays. Your details go to {view.merchant_name}{" "}
        with this payment; the address to pay to is shown next.
      </p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with a star</span> are required.
      </p>
      <form method="post" action={`/pay/${view.token}/customer`} onSubmit={submit} noValidate>
        <fieldset className="mt-3">
          <legend className="text-sm font-medium">You are paying as</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {(
              [
                ["natural", "A person"],
                ["legal", "A company"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="sender_type"
                  value={value}
                  checked={kind === value}
                  onChange={() => setKind(value)}
                  className="h-4 w-4"
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        {kind === "natural" ? (
          <div className="grid gap-x-3 sm:grid-cols-2">
            <Input
              name="sender_data.first_name"
              label="First name"
              errors={errors}
              autoComplete="given-name"
            />
            <Input
              name="sender_data.last_name"
              label="Last name"
              errors={errors}
              autoComplete="family-name"
            />
            <Input
              name="sender_data.date_of_birth"
              label="Date of birth"
              type="date"
              errors={errors}
              autoComplete="bday"
            />
          </div>
        ) : (
          <>
            <Input
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
                className={inputClass}
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
        <Input
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
        <button
          type="submit"
          disabled={isSending}
          className="mt-4 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
        >
          {isSending ? "Saving your details…" : "Continue to payment"}
        </button>
      </form>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {view.expires_at !== null && (
        <Countdown expiresAt={view.expires_at} serverTime={view.server_time} label="Time left to pay:" />
      )}
    </section>
  );
}
