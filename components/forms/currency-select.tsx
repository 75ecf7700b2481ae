import type { UseFormRegisterReturn } from "react-hook-form";
import { CURRENCIES } from "@/lib/currencies/registry";
import { selectClass } from "./field";

/**
 * The required `currency` select of the invoice and payment link forms: every currency Kassa prices,
 * showing `defaultValue` (the form's default, `selectDefault`) as the server renders it.
 */
export function CurrencySelect({
  registration,
  defaultValue,
}: {
  registration: UseFormRegisterReturn;
  defaultValue: string;
}) {
  return (
    <select
      id="field-currency"
      aria-required="true"
      className={selectClass}
      defaultValue={defaultValue}
      {...registration}
    >
      {CURRENCIES.map((c) => (
        <option key={c.code} value={c.code}>
          {c.code} · {c.name}
        </option>
      ))}
    </select>
  );
}
