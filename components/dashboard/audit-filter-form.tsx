import { AUDIT_ACTION_LABELS } from "./audit-action-labels";

type Values = { action: string; actor: string; from: string; to: string };

/**
 * The audit page's filter: a plain GET form, so the filter lives in the address. One row on wide
 * screens (two columns on medium ones), every control the same height: a date input and a select
 * differ in Chromium, and the button had no border, so equal columns left them out of line.
 */
export function AuditFilterForm({ values, selectClass }: { values: Values; selectClass: string }) {
  const control = `mt-1 h-11 ${selectClass}`;
  return (
    <form
      method="get"
      action="/dashboard/audit"
      className="mt-4 grid gap-3 sm:grid-cols-2 sm:items-end lg:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_minmax(0,1fr)_minmax(0,1fr)_auto]"
    >
      <div>
        <label htmlFor="audit-action" className="block text-sm font-medium">
          Action
        </label>
        <select id="audit-action" name="action" defaultValue={values.action} className={control}>
          <option value="">Any action</option>
          {Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="audit-actor" className="block text-sm font-medium">
          Who (contains)
        </label>
        <input id="audit-actor" name="actor" defaultValue={values.actor} className={control} />
      </div>
      <div>
        <label htmlFor="audit-from" className="block text-sm font-medium">
          From
        </label>
        <input id="audit-from" name="from" type="date" defaultValue={values.from} className={control} />
      </div>
      <div>
        <label htmlFor="audit-to" className="block text-sm font-medium">
          Before
        </label>
        <input id="audit-to" name="to" type="date" defaultValue={values.to} className={control} />
      </div>
      <button
        type="submit"
        className="h-11 rounded-md border border-transparent bg-indigo-700 px-4 font-medium text-white hover:bg-indigo-800"
      >
        Filter
      </button>
    </form>
  );
}
