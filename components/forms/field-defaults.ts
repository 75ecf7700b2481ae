import { type FieldValues, get, type Path, type UseFormReturn } from "react-hook-form";

/*
 * What a field registered with react-hook-form shows as the server renders it. `register` passes
 * no value, so the form's defaults reached the fields only once the page's script ran: until then
 * a select showed its first option (BTC where the form meant EUR) and a checkbox meant to be ticked
 * was not, and what the user kept of that was undone at hydration. Give these as the field's
 * `defaultValue` or `defaultChecked`.
 */

type WithDefaults<Values extends FieldValues> = Pick<UseFormReturn<Values>, "formState">;

/** The option a select shows first: the form's default for the field. */
export function selectDefault<Values extends FieldValues>(
  form: WithDefaults<Values>,
  name: Path<Values>,
): string {
  const value = get(form.formState.defaultValues, name);
  return value === undefined || value === null ? "" : String(value);
}

/**
 * Whether a checkbox starts ticked: a boolean default, or, for one of several checkboxes of a field
 * whose default lists values, whether `value` is among them.
 */
export function checkedByDefault<Values extends FieldValues>(
  form: WithDefaults<Values>,
  name: Path<Values>,
  value?: string,
): boolean {
  const initial: unknown = get(form.formState.defaultValues, name);
  return Array.isArray(initial) ? value !== undefined && initial.includes(value) : initial === true;
}
