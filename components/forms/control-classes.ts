/** The dashboard's control looks, shared by client and server components alike. */
export const selectClass =
  "block w-full rounded-md border border-slate-300 px-3 py-2 text-base dark:border-slate-600 dark:bg-slate-900";
export const buttonClass =
  "rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:cursor-not-allowed disabled:opacity-60";
export const secondaryButtonClass =
  "rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800";
