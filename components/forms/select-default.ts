import { type FieldValues, get, type Path, type UseFormReturn } from "react-hook-form";

/**
 * The choice a select registered with react-hook-form shows as the server renders it: the form's
 * default for the field. react-hook-form sets it only once the page's script runs; without it the
 * page showed the first option until then (BTC where the form meant EUR), and a choice the user
 * made meanwhile could be undone. Give it as the select's `defaultValue`.
 */
export function selectDefault<Values extends FieldValues>(
  form: Pick<UseFormReturn<Values>, "formState">,
  name: Path<Values>,
): string {
  const value = get(form.formState.defaultValues, name);
  return value === undefined || value === null ? "" : String(value);
}
