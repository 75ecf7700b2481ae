import { AUDIT_ACTION_LABELS } from "./audit-action-labels";

type Values = { action: string; actor: string; from: string; to: string };

/** The audit page's filter: a plain GET form, so the filter lives in the address. */
export function AuditFilterForm({ values, selectClass }: { values: Values; selectClass: string }) {
  return (
    <form method="get" action="/dashboard/audit" className="mt-4 grid gap-3 sm:grid-cols-5 sm:items-end">
      <div>
        <label htmlFor="audit-action" className="block text-sm font-medium">
          Action
        </label>
        <select
          id="audit-action"
          name="action"
          defaultValue={values.action}
          className={`mt-1 ${selectClass}`}
        >
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
        <input id="audit-actor" name="actor" defaultValue={values.actor} className={`mt-1 ${selectClass}`} />
      </div>
      <div>
        <label htmlFor="audit-from" className="block text-sm font-medium">
          From
        </label>
        <input
          id="audit-from"
          name="from"
          type="date"
          defaultValue={values.from}
          className={`mt-1 ${selectClass}`}
        />
      </div>
      <div>
        <label htmlFor="audit-to" className="block text-sm font-medium">
          Before
        </label>
        <input
          id="audit-to"
          name="to"
          type="date"
          defaultValue={values.to}
          className={`mt-1 ${selectClass}`}
        />
      </div>
      <button
        type="submit"
        className="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
      >
        Filter
      </button>
    </form>
  );
}
