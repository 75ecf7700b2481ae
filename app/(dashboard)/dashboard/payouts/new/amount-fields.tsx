"use client";

import { useState } from "react";
import type { UseFormReturn } from "react-hook-form";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { decimalFromInput } from "@/components/forms/decimal-input";
import { Field, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { selectDefault } from "@/components/forms/field-defaults";
import { errorMessage } from "@/components/forms/form-error";
import { useBalances } from "@/components/query/use-balances";
import { fetchMaxPayout } from "@/components/query/use-payouts";
import { CURRENCIES } from "@/lib/currencies/registry";
import type { AmountField, PayoutValues } from "./payout-values";
import { QuoteLine } from "./quote-line";

const CRYPTO = CURRENCIES.filter((c) => c.kind === "crypto");

/**
 * What leaves the balance: the currency (with its balance), an optional conversion, and the amount
 * in whichever currency the merchant chose to give it, with a live quote under it.
 */
export function AmountFields({
  form,
  isInstant,
  source,
  convertTo,
  amountField,
  onAmountField,
  tagProblem,
}: {
  form: UseFormReturn<PayoutValues>;
  isInstant: boolean;
  source: string;
  convertTo: string;
  amountField: AmountField;
  onAmountField: (field: "amount" | "amount_to") => void;
  tagProblem?: string;
}) {
  const { register, formState, watch } = form;
  const errors = formState.errors;
  const balances = useBalances();
  const balanceOf = (code: string) =>
    balances.data?.balances.find((b) => b.currency === code)?.balance ?? null;
  const sourceField = isInstant ? "sender_currency" : "currency";
  const [maxNote, setMaxNote] = useState("");
  const available = balanceOf(source);
  // Max: the largest amount whose fees still fit the balance, from the server's own pricing.
  const fillMax = async () => {
    setMaxNote("");
    try {
      const max = await fetchMaxPayout(source, convertTo || source);
      if (max.max_amount === null) {
        setMaxNote(`Your ${source} balance does not cover the smallest payout with its fees.`);
        return;
      }
      if (amountField === "amount_to") onAmountField("amount");
      const field = isInstant ? "sender_amount" : "amount";
      form.setValue(field, max.max_amount.replace(/\.?0+$/, ""), { shouldValidate: true });
    } catch (caught) {
      setMaxNote(errorMessage(caught));
    }
  };
  return (
    <>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field label={isInstant ? "Currency to send" : "Pay from balance"} name={sourceField} errors={errors}>
          <select
            id={`field-${sourceField}`}
            className={selectClass}
            defaultValue={selectDefault(form, sourceField)}
            {...register(sourceField)}
          >
            {(isInstant ? CRYPTO : CURRENCIES).map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · balance{" "}
                {balanceOf(c.code) === null ? "…" : dashboardAmount(balanceOf(c.code), c.code)}
              </option>
            ))}
          </select>
        </Field>
        {!isInstant && (
          <Field
            label="Convert to (optional)"
            name="convert_to"
            errors={errors}
            hint="Send a different crypto currency than the balance's."
          >
            <select
              id="field-convert_to"
              className={selectClass}
              defaultValue={selectDefault(form, "convert_to")}
              {...register("convert_to")}
            >
              <option value="">No conversion</option>
              {CRYPTO.filter((c) => c.code !== source).map((c) => (
                <option key={c.code} value={c.code}>
                  {c.code}
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>
      {!isInstant && convertTo && (
        <fieldset className="mt-3">
          <legend className="text-sm font-medium">Amount given in</legend>
          <div className="mt-1 flex gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="amount_mode"
                checked={amountField === "amount"}
                onChange={() => onAmountField("amount")}
              />{" "}
              {source} to debit (amount)
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="amount_mode"
                checked={amountField === "amount_to"}
                onChange={() => onAmountField("amount_to")}
              />{" "}
              {convertTo} to send (amount_to)
            </label>
          </div>
        </fieldset>
      )}
      <Field
        key={amountField}
        label={`Amount (${amountField === "amount_to" ? convertTo : source})`}
        name={amountField}
        inputMode="decimal"
        errors={errors}
        register={register(amountField, { setValueAs: decimalFromInput })}
      />
      <div className="mt-1 flex flex-wrap items-center gap-3 text-sm">
        <span>
          Available:{" "}
          <span className="font-mono">{available === null ? "…" : dashboardAmount(available, source)}</span>
        </span>
        <button type="button" className={secondaryButtonClass} onClick={fillMax}>
          Max
        </button>
        {maxNote && <span className="text-amber-800 dark:text-amber-300">{maxNote}</span>}
      </div>
      <QuoteLine
        source={source}
        target={convertTo || source}
        amountField={amountField}
        amountValue={String(watch(amountField) ?? "")}
        tagProblem={tagProblem}
      />
    </>
  );
}
