"use client";

import type { FieldErrors, UseFormRegister, UseFormWatch } from "react-hook-form";
import { Field, selectClass } from "@/components/forms/field";

/**
 * The customer fields of spec 2.1, switching with the type: a person's name and date of birth, or a
 * company's legal name and country. `self` (receivers only) needs no fields at all.
 */
export function PartyFields({
  side,
  register,
  watch,
  errors,
  allowSelf = false,
}: {
  side: "sender" | "receiver";
  register: UseFormRegister<never>;
  watch: UseFormWatch<never>;
  errors: FieldErrors;
  allowSelf?: boolean;
}) {
  const typeField = `${side}_type` as never;
  const type = watch(typeField) as unknown as string;
  const data = `${side}_data`;
  const title = side === "sender" ? "Sender (your customer)" : "Receiver";
  return (
    <fieldset className="mt-4 rounded-md border border-slate-200 p-3 dark:border-slate-800">
      <legend className="px-1 font-semibold">{title}</legend>
      <Field
        label={`${side === "sender" ? "Sender" : "Receiver"} type`}
        name={`${side}_type`}
        errors={errors}
      >
        <select id={`field-${side}_type`} className={selectClass} {...register(typeField)}>
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
            register={register(`${data}.first_name` as never)}
          />
          <Field
            label="Last name"
            name={`${data}.last_name`}
            errors={errors}
            register={register(`${data}.last_name` as never)}
          />
          <Field
            label="Date of birth"
            name={`${data}.date_of_birth`}
            type="date"
            errors={errors}
            register={register(`${data}.date_of_birth` as never)}
          />
        </div>
      )}
      {type === "legal" && (
        <div className="grid gap-x-3 sm:grid-cols-2">
          <Field
            label="Legal name"
            name={`${data}.legal_name`}
            errors={errors}
            register={register(`${data}.legal_name` as never)}
          />
          <Field
            label="Country of registration"
            name={`${data}.country_of_registration`}
            errors={errors}
            register={register(`${data}.country_of_registration` as never)}
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
