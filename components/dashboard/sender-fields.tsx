"use client";

import type { FieldErrors, UseFormRegisterReturn } from "react-hook-form";
import { Field, selectClass } from "@/components/forms/field";

export type PartyDataKey =
  | "first_name"
  | "last_name"
  | "date_of_birth"
  | "legal_name"
  | "country_of_registration";

/**
 * The customer fields of spec 2.1, switching with the type: a person's name and date of birth, or a
 * company's legal name and country. `self` (receivers only) needs no fields at all. The form
 * registers the fields (`typeField`, `dataField(key)` for `<side>_data.<key>`), so each form keeps
 * its own types.
 */
export function PartyFields({
  side,
  type,
  typeField,
  dataField,
  errors,
  allowSelf = false,
  title,
  emptyOption,
}: {
  side: "sender" | "receiver";
  type: string | undefined;
  typeField: UseFormRegisterReturn;
  dataField: (key: PartyDataKey) => UseFormRegisterReturn;
  errors: FieldErrors;
  allowSelf?: boolean;
  /** The fieldset's legend, where the default ("Sender (your customer)") is not who sends. */
  title?: string;
  /** A first choice that gives no details at all (the invoice form: the customer gives them). */
  emptyOption?: string;
}) {
  const data = `${side}_data`;
  const legend = title ?? (side === "sender" ? "Sender (your customer)" : "Receiver");
  return (
    <fieldset className="mt-4 rounded-md border border-slate-200 p-3 dark:border-slate-800">
      <legend className="px-1 font-semibold">{legend}</legend>
      <Field
        label={`${side === "sender" ? "Sender" : "Receiver"} type`}
        name={`${side}_type`}
        errors={errors}
      >
        {/* What the form holds (its default, when the server renders): shown before the page's script runs. */}
        <select id={`field-${side}_type`} className={selectClass} defaultValue={type ?? ""} {...typeField}>
          {emptyOption !== undefined && <option value="">{emptyOption}</option>}
          <option value="natural">A person</option>
          <option value="legal">A company</option>
          {allowSelf && <option value="self">Your own wallet (self)</option>}
        </select>
      </Field>
      {type === "natural" && (
        <div className="grid gap-x-3 sm:grid-cols-3">
          <Field
            label="First name"
            name={`${data}.first_name`}
            errors={errors}
            register={dataField("first_name")}
          />
          <Field
            label="Last name"
            name={`${data}.last_name`}
            errors={errors}
            register={dataField("last_name")}
          />
          <Field
            label="Date of birth"
            name={`${data}.date_of_birth`}
            type="date"
            errors={errors}
            register={dataField("date_of_birth")}
          />
        </div>
      )}
      {type === "legal" && (
        <div className="grid gap-x-3 sm:grid-cols-2">
          <Field
            label="Legal name"
            name={`${data}.legal_name`}
            errors={errors}
            register={dataField("legal_name")}
          />
          <Field
            label="Country of registration"
            name={`${data}.country_of_registration`}
            errors={errors}
            register={dataField("country_of_registration")}
            hint="Three-letter code, such as DEU or USA."
            maxLength={3}
            autoCapitalize="characters"
          />
        </div>
      )}
      {type === "self" && (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          The funds go to a wallet of yours: no receiver details needed.
        </p>
      )}
    </fieldset>
  );
}
