import type { UseFormRegisterReturn } from "react-hook-form";
import { selectClass } from "./field";

/**
 * The required `currency` select of the invoice and payment link forms: the `currencies` given (the
 * registry's, from the page), showing `defaultValue` (the form's default, `selectDefault`) as the
 * server renders it.
 */
export function CurrencySelect({
  registration,
  defaultValue,
  currencies,
}: {
  registration: UseFormRegisterReturn;
  defaultValue: string;
  currencies: readonly { code: string; name: string }[];
}) {
  return (
    <select
      id="field-currency"
      aria-required="true"
      className={selectClass}
      defaultValue={defaultValue}
      {...registration}
    >
      {currencies.map((c) => (
        <option key={c.code} value={c.code}>
          {c.code} · {c.name}
        </option>
      ))}
    </select>
  );
}
